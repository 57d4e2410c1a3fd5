import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { AppError } from "../../lib/errors.ts";
import { ModelError } from "../../models/model-errors.ts";
import type { AgentRepo, AgentRow } from "../agents/agent-repo.ts";
import { type Billing, type Reservation, releasingOnFailure } from "../billing/billing-port.ts";
import type { ContactInput } from "../conversations/contact-repo.ts";
import type { ConversationRepo, ConversationRow } from "../conversations/conversation-repo.ts";
import type { ConversationTurns } from "../conversations/conversation-turns.ts";
import type { EventPublisher, PublishedEvent } from "../events/event-types.ts";
import { type AnswerPipeline, HANDOVER_TEXT, HISTORY_MESSAGES } from "../query/answer-pipeline.ts";
import { asksForHuman } from "../query/human-request.ts";
import type { KnowledgeLookup } from "../query/query-knowledge.ts";
import { type BatchedAnswer, generateBatchedAnswer } from "../webhooks/batched-answer.ts";
import {
  answerEvents,
  type BatchedAnswerCharge,
  type BatchedAnswerChargeDeps,
  batchedAnswerMessages,
  chargeBatchedAnswer,
  chargeBatchedAnswerCalls,
} from "../webhooks/batched-answer-record.ts";
import type { WindowMessageRepo } from "../webhooks/window-message-repo.ts";
import { type ChannelAdapter, type PlatformContext, PlatformError } from "./channel-adapter.ts";
import type {
  ChannelEventRow,
  ChannelLaneRepo,
  ChannelThreadRow,
  PendingSend,
} from "./channel-lane-repo.ts";
import type { ChannelRepo } from "./channel-repo.ts";
import type { OpenedChannel } from "./channel-service.ts";

/** Speech to text for a channel's voice notes, charged to the agent's organization. */
export type VoiceTranscriber = {
  transcribeForAgent(input: {
    organizationId: string;
    agentId: string;
    audio: Uint8Array;
    requestId: string;
    metadata?: Record<string, unknown>;
  }): Promise<{ text: string }>;
};

type ChannelTurnMetrics = {
  sent(type: string, outcome: "sent" | "retry" | "failed", seconds: number): void;
  /** From the customer's (latest) message to the first part of its answer handed over. */
  answered(type: string, seconds: number): void;
};

export type ChannelTurnDeps = BatchedAnswerChargeDeps & {
  db: Db;
  lanes: ChannelLaneRepo;
  channels: Pick<ChannelRepo, "findById" | "recordPlatformError">;
  open(row: NonNullable<Awaited<ReturnType<ChannelRepo["findById"]>>>): OpenedChannel;
  agents: Pick<AgentRepo, "findById">;
  conversations: Pick<
    ConversationRepo,
    "findById" | "applyTurn" | "insertMessages" | "setMessageUsage"
  >;
  turns: Pick<ConversationTurns, "resolveTarget" | "recordTurnWith">;
  windowMessages: WindowMessageRepo;
  billing: Billing;
  answers: AnswerPipeline;
  knowledge: KnowledgeLookup | null;
  transcription: VoiceTranscriber;
  events: EventPublisher;
  jobs: Pick<JobQueue, "send">;
  platform: PlatformContext;
  metrics: ChannelTurnMetrics;
  settings: {
    batchDelayMs: number;
    /** How long a worker holds a lane: the model's time and the sends, with room to spare. */
    leaseMs: number;
    /** Attempts of one outbound message before it is given up. */
    maxSendAttempts: number;
    /** Delay before a send's first retry; each later one waits twice as long. */
    retryBaseMs: number;
  };
};

export const REPLY_WINDOW_CLOSED =
  "The customer's last message is more than 24 hours old: the platform allows free text only within 24 hours of it";

const TAKEN_OVER = "A person took over the conversation before this answer was sent";

/** Whether the platform still lets us write to the customer (WhatsApp's 24-hour rule). */
export function replyWindowOpen(
  adapter: Pick<ChannelAdapter, "replyWindowMs">,
  thread: Pick<ChannelThreadRow, "lastInboundAt">,
): boolean {
  const windowMs = adapter.replyWindowMs;
  return windowMs === undefined || Date.now() <= thread.lastInboundAt.getTime() + windowMs;
}

/** The longest message the platform takes in this chat. */
export function maxCharsTo(
  adapter: Pick<ChannelAdapter, "maxChars" | "maxCharsTo">,
  to: ChannelThreadRow["replyTo"],
): number {
  return adapter.maxCharsTo?.(to) ?? adapter.maxChars;
}

/** When a run that found the lane taken looks again: soon, the holder may be nearly done. */
const LANE_BUSY_RETRY_MS = 1_000;

/** An answer to store: its text, the model's turn, the credits held, and who asked for a person. */
type GeneratedChannelAnswer = {
  text: string;
  generated: BatchedAnswer;
  reservation: Reservation;
  /** The customer's own words asked for a person (else the model handed over, if it did). */
  customerAsked: boolean;
};

/** Nothing to say: the customer is told `unavailableMessage`, if the agent has one. */
class NoAnswerError extends Error {
  override name = "NoAnswerError";
}

/** Failures that end a turn without an answer; anything else is retried as a job. */
function isAnswerFailure(error: unknown): boolean {
  return error instanceof AppError || error instanceof ModelError || error instanceof NoAnswerError;
}

const earliest = (...dates: Array<Date | null>): Date | null =>
  dates.reduce<Date | null>(
    (first, date) => (date && (!first || date < first) ? date : first),
    null,
  );

/**
 * The channel conversation's id in the spec's terms. WhatsApp's is the spec's own pattern,
 * `{organizationId}_{agentId}_{telephoneNumber}` with the number as WhatsApp gives it (digits,
 * no "+"), as the query-agent API's clients write it: both land in one conversation.
 */
function channelExternalIdOf(channel: OpenedChannel, thread: ChannelThreadRow): string {
  if (channel.row.type === "whatsapp") {
    return `${channel.row.organizationId}_${channel.row.agentId}_${thread.threadKey.replace(/^\+/, "")}`;
  }
  return thread.threadKey;
}

function contactOf(channel: OpenedChannel, thread: ChannelThreadRow): ContactInput {
  const { sender } = thread;
  const [firstName, ...rest] = (sender.name ?? "").trim().split(/\s+/);
  return {
    ...(firstName ? { firstName } : {}),
    ...(rest.length > 0 ? { lastName: rest.join(" ") } : {}),
    ...(sender.phone ? { phoneNumber: sender.phone } : {}),
    ...(sender.email ? { email: sender.email } : {}),
    ...(sender.phone || sender.email ? {} : { userId: `${channel.row.type}:${sender.externalId}` }),
  };
}

/**
 * Works the lane of one channel conversation: records the customer's messages (voice notes
 * transcribed), answers them as one turn once the batching delay has passed, and hands the
 * answer to the platform in order, retrying sends with backoff. One worker at a time per lane.
 */
export function createChannelTurns(deps: ChannelTurnDeps) {
  const { lanes, settings } = deps;

  async function schedule(organizationId: string, threadId: string, at: Date) {
    await lanes.scheduleTurn(organizationId, threadId, at);
    await deps.jobs.send("channel.turn", { organizationId, threadId }, { startAfter: at });
  }

  /** The customer's new messages as conversation messages, in one statement with their events. */
  async function record(
    channel: OpenedChannel,
    thread: ChannelThreadRow,
    received: ChannelEventRow[],
  ): Promise<ConversationRow> {
    const { row } = channel;
    const texts: string[] = [];
    for (const event of received) {
      const audio = event.payload?.audio;
      const written = event.payload?.text ?? "";
      if (!audio || !channel.adapter.download) {
        texts.push(written);
        continue;
      }
      const bytes = await channel.adapter.download(deps.platform, channel, audio);
      const { text } = await deps.transcription.transcribeForAgent({
        organizationId: row.organizationId,
        agentId: row.agentId,
        audio: bytes,
        requestId: event.id,
        metadata: { channel: { channelId: row.id, type: row.type } },
      });
      texts.push([written.trim(), text.trim()].filter(Boolean).join("\n\n"));
    }
    const existing = thread.conversationId
      ? await deps.conversations.findById(row.organizationId, thread.conversationId)
      : null;
    const target = await deps.turns.resolveTarget(row.organizationId, row.agentId, {
      ...(existing ? { conversationId: existing.conversation.externalId } : {}),
      channel: row.type,
      channelExternalId: channelExternalIdOf(channel, thread),
    });
    // In the order they were written, even when a later one reached us first.
    let previous = 0;
    const writtenAt = received.map((event) => {
      previous = Math.max(event.receivedAt.getTime(), previous + 1);
      return new Date(previous);
    });
    const [conversation] = await deps.turns.recordTurnWith(
      {
        organizationId: row.organizationId,
        agentId: row.agentId,
        target,
        // A customer asking for a person still gets the AI's handover answer to this turn:
        // the request takes the AI out once that answer is stored (storeAnswer).
        status: "reopen",
        contact: contactOf(channel, thread),
        messages: received.map((event, index) => ({
          id: event.id,
          from: "human" as const,
          text: texts[index]!,
          ...(event.payload?.attachments ? { attachments: event.payload.attachments } : {}),
          metadata: {
            channel: { channelId: row.id, platformMessageId: event.platformMessageId },
            ...(event.payload?.audio ? { voice: true } : {}),
            ...(asksForHuman(texts[index]!) ? { requestedHuman: true } : {}),
          },
          createdAt: writtenAt[index]!,
        })),
      },
      lanes.recordedPart(
        thread.id,
        received.map((event) => event.id),
      ),
    );
    return conversation;
  }

  async function generate(
    agent: AgentRow,
    conversation: ConversationRow,
    messageIds: string[],
  ): Promise<GeneratedChannelAnswer> {
    const { organizationId } = conversation;
    const waiting = await deps.windowMessages.waiting(organizationId, conversation.id, messageIds);
    const reservation = await deps.billing.reserve(
      deps.answers.reservation({
        organizationId,
        agent,
        overrides: {},
        knownTexts: waiting.map((message) => message.text),
        hasAttachments: waiting.some((message) => message.attachments.length > 0),
      }),
    );
    return releasingOnFailure(deps.billing, reservation, async () => {
      const history = await deps.windowMessages.history(
        organizationId,
        conversation.id,
        messageIds,
        HISTORY_MESSAGES,
      );
      const generated = await generateBatchedAnswer(deps, {
        organizationId,
        agent,
        waiting,
        history,
        options: {},
        // The platform's user reads the answer, never an operator.
        publicAudience: true,
      });
      if (generated.turn.error) throw generated.turn.error;
      const text =
        generated.turn.text.trim() === "" && generated.turn.requestedHuman
          ? HANDOVER_TEXT
          : generated.turn.text;
      if (text.trim() === "") throw new NoAnswerError("The model returned an empty answer");
      const customerAsked = waiting.some((message) => message.metadata.requestedHuman === true);
      return { text, generated, reservation, customerAsked };
    });
  }

  /** The request for a person an answer hands over for: the customer's words, or the model's. */
  function humanRequestedEvent(
    conversation: ConversationRow,
    customerAsked: boolean,
  ): PublishedEvent {
    return {
      organizationId: conversation.organizationId,
      agentId: conversation.agentId,
      conversationId: conversation.externalId,
      name: "conversation.human_requested",
      data: {
        trigger: customerAsked ? "customer" : "model",
      },
    };
  }

  /**
   * Stores the answer's parts and queues their sends, with the events closed and the answer
   * charged, in one transaction.
   */
  async function storeAnswer(
    channel: OpenedChannel,
    thread: ChannelThreadRow,
    conversation: ConversationRow,
    events: ChannelEventRow[],
    answer: GeneratedChannelAnswer,
  ): Promise<void> {
    const { row } = channel;
    const eventIds = events.map((event) => event.id);
    const { rows, parts, usage } = batchedAnswerMessages({
      organizationId: row.organizationId,
      conversationId: conversation.id,
      agentId: row.agentId,
      text: answer.text,
      maxParts: channel.adapter.maxParts,
      maxChars: maxCharsTo(channel.adapter, thread.replyTo),
      // After the waiting messages, however their written order spread them.
      after: new Date(
        Math.max(...events.map((event) => event.receivedAt.getTime())) + events.length,
      ),
      generated: answer.generated,
      deliveredAs: (part, count) => ({
        channel: { channelId: row.id, part, parts: count, inputMessageIds: eventIds },
      }),
    });
    const charge: BatchedAnswerCharge = {
      owner: {
        organizationId: row.organizationId,
        agentId: row.agentId,
        apiKeyId: null,
        conversationId: conversation.externalId,
        messageId: parts[0]!.id,
      },
      generated: answer.generated,
      usage,
      reservationId: answer.reservation.id,
      metadata: { channel: { channelId: row.id, type: row.type, messages: events.length } },
    };
    const stored = await deps.db.transaction(async (tx) => {
      if (!(await lanes.markAnswered(row.organizationId, eventIds, tx))) return false;
      const now = await deps.conversations.findById(row.organizationId, conversation.id, tx);
      if (!now?.conversation.aiEnabled) {
        // A person took over while the model wrote: the answer is kept as a draft, not sent.
        await deps.conversations.insertMessages(
          rows.map((message) => ({ ...message, isDraft: true })),
          tx,
        );
        await chargeBatchedAnswer(deps, tx, charge);
        return true;
      }
      const { requestedHuman } = answer.generated;
      await deps.conversations.applyTurn(
        row.organizationId,
        row.agentId,
        conversation.id,
        { status: requestedHuman ? "human_requested" : "keep" },
        tx,
      );
      await deps.conversations.insertMessages(rows, tx);
      await deps.events.publishAll(
        [
          ...answerEvents(conversation, rows),
          ...(requestedHuman && now.conversation.status !== "HUMAN_REQUESTED"
            ? [humanRequestedEvent(conversation, answer.customerAsked)]
            : []),
        ],
        tx,
      );
      await lanes.queueSends(
        parts.map((part) => ({
          messageId: part.id,
          organizationId: row.organizationId,
          channelId: row.id,
          threadId: thread.id,
          createdAt: part.createdAt,
        })),
        tx,
      );
      await chargeBatchedAnswer(deps, tx, charge);
      return true;
    });
    if (!stored) {
      // Another worker answered them (this one outlived its lease): its answer stands.
      await deps.billing.release(answer.reservation).catch(() => {});
      return;
    }
    await chargeBatchedAnswerCalls(deps, charge, { channelId: row.id, threadId: thread.id });
  }

  /** No answer can be given: the failure is recorded, and the agent's unavailableMessage sent. */
  async function storeUnavailable(
    channel: OpenedChannel,
    thread: ChannelThreadRow,
    conversation: ConversationRow | null,
    agent: AgentRow | null,
    events: ChannelEventRow[],
    error: unknown,
  ): Promise<void> {
    const { row } = channel;
    const reason = error instanceof Error ? error.message : "The answer could not be generated";
    deps.logger.warn(
      { channelId: row.id, threadId: thread.id, reason },
      "a channel message was not answered",
    );
    const eventIds = events.map((event) => event.id);
    const message = agent?.unavailableMessage ?? null;
    await deps.db.transaction(async (tx) => {
      await lanes.fail(row.organizationId, eventIds, reason, tx);
      if (!message || !conversation) return;
      const id = `${eventIds.at(-1)}-unavailable`;
      const createdAt = new Date(Math.max(Date.now(), events.at(-1)!.receivedAt.getTime() + 1));
      await deps.conversations.insertMessages(
        [
          {
            id,
            organizationId: row.organizationId,
            conversationId: conversation.id,
            agentId: row.agentId,
            from: "agent",
            text: message,
            createdAt,
            metadata: {
              channel: { channelId: row.id, inputMessageIds: eventIds },
              unavailable: { reason },
            },
          },
        ],
        tx,
      );
      await lanes.queueSends(
        [
          {
            messageId: id,
            organizationId: row.organizationId,
            channelId: row.id,
            threadId: thread.id,
            createdAt,
          },
        ],
        tx,
      );
    });
  }

  /** Answers the lane's waiting messages as one turn; returns when to look again, if later. */
  async function answerWaiting(
    channel: OpenedChannel,
    thread: ChannelThreadRow,
  ): Promise<Date | null> {
    const { row } = channel;
    const events = await lanes.unanswered(row.organizationId, thread.id);
    if (events.length === 0) return null;
    const newest = Math.max(...events.map((event) => event.receivedAt.getTime()));
    const due = new Date(newest + settings.batchDelayMs);
    if (due.getTime() > Date.now()) return due;

    const agent = await deps.agents.findById(row.organizationId, row.agentId);
    let conversation: ConversationRow | null = null;
    try {
      const received = events.filter((event) => event.state === "received");
      if (received.length > 0) {
        conversation = await record(channel, thread, received);
      } else if (thread.conversationId) {
        conversation =
          (await deps.conversations.findById(row.organizationId, thread.conversationId))
            ?.conversation ?? null;
      }
      if (!conversation) throw new NoAnswerError("The conversation of these messages was erased");
      if (!conversation.aiEnabled) {
        // A person handles the conversation: the messages wait for them, not for the AI.
        await lanes.markAnswered(
          row.organizationId,
          events.map((event) => event.id),
        );
        return null;
      }
      if (!agent) throw new NoAnswerError("The agent of this channel was deleted");
      // Only the AI types: a customer whose conversation a person handles sees no indicator.
      if (received.length > 0) {
        await channel.adapter.typing?.(deps.platform, channel, thread.replyTo).catch(() => {});
      }
      const answer = await generate(
        agent,
        conversation,
        events.map((event) => event.id),
      );
      await releasingOnFailure(deps.billing, answer.reservation, () =>
        storeAnswer(channel, thread, conversation!, events, answer),
      );
    } catch (error) {
      if (
        !isAnswerFailure(error) &&
        !(error instanceof PlatformError && !error.options.retryable)
      ) {
        throw error;
      }
      await storeUnavailable(channel, thread, conversation, agent, events, error);
    }
    return null;
  }

  /** Read again right before each AI send: a person who took over is never talked over. */
  async function aiMaySend(organizationId: string, conversationId: string): Promise<boolean> {
    const found = await deps.conversations.findById(organizationId, conversationId);
    return found?.conversation.aiEnabled ?? false;
  }

  /** Hands queued messages to the platform, oldest first; returns when to retry, if needed. */
  async function sendQueued(
    channel: OpenedChannel,
    thread: ChannelThreadRow,
  ): Promise<Date | null> {
    const { row, adapter } = channel;
    const pending: PendingSend[] = await lanes.pendingSends(row.organizationId, thread.id);
    let answerTimed = false;
    let handedOver = false;
    for (const send of pending) {
      if (send.nextAttemptAt.getTime() > Date.now()) return send.nextAttemptAt;
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      // An answer that hands over turned the AI off itself: it is still the customer's answer.
      const aiSend = !send.byOperator && !send.handsOver;
      if (aiSend && !(await aiMaySend(row.organizationId, send.conversationId))) {
        await lanes.markAttemptFailed(row.organizationId, send.messageId, TAKEN_OVER, null);
        continue;
      }
      if (!replyWindowOpen(channel.adapter, thread)) {
        await lanes.markAttemptFailed(
          row.organizationId,
          send.messageId,
          REPLY_WINDOW_CLOSED,
          null,
        );
        deps.metrics.sent(row.type, "failed", seconds());
        continue;
      }
      try {
        // The platform learns of the handover before the customer reads it (Chatwoot opens the
        // conversation to its agents); asking twice, after a retry, changes nothing.
        if (send.handsOver && adapter.handOver && !handedOver) {
          await adapter.handOver(deps.platform, channel, thread.replyTo);
          handedOver = true;
        }
        const { platformMessageId } = await adapter.send(
          deps.platform,
          channel,
          thread.replyTo,
          send.text,
          { byOperator: send.byOperator },
        );
        await lanes.markSent(row.organizationId, send.messageId, platformMessageId);
        deps.metrics.sent(row.type, "sent", seconds());
        // The first message handed over in a run answers the customer's latest message.
        if (!answerTimed && send.attemptCount === 0) {
          answerTimed = true;
          deps.metrics.answered(row.type, (Date.now() - thread.lastInboundAt.getTime()) / 1000);
        }
        if (row.status === "error")
          await deps.channels.recordPlatformError(row.organizationId, row.id, null);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        const attempts = send.attemptCount + 1;
        const retry = error.options.retryable && attempts < settings.maxSendAttempts;
        // The platform's Retry-After when it gave one, else our backoff.
        const waitMs = error.options.retryAfterMs ?? settings.retryBaseMs * 2 ** (attempts - 1);
        const retryAt = retry ? new Date(Date.now() + waitMs) : null;
        await lanes.markAttemptFailed(row.organizationId, send.messageId, error.message, retryAt);
        deps.metrics.sent(row.type, retry ? "retry" : "failed", seconds());
        if (error.options.credentialsRefused) {
          await deps.channels.recordPlatformError(row.organizationId, row.id, error.message);
        }
        // Later messages wait behind a retry, so the customer reads them in order.
        if (retryAt) return retryAt;
      }
    }
    return null;
  }

  async function work(thread: ChannelThreadRow): Promise<Date | null> {
    const row = await deps.channels.findById(thread.organizationId, thread.channelId);
    if (!row) return null;
    const channel = deps.open(row);
    if (!row.enabled) {
      const events = await lanes.unanswered(row.organizationId, thread.id);
      await lanes.fail(
        row.organizationId,
        events.map((event) => event.id),
        "The channel is disabled",
      );
      return null;
    }
    const answerAt = await answerWaiting(channel, thread);
    const retryAt = await sendQueued(channel, thread);
    return earliest(answerAt, retryAt);
  }

  return {
    /** The job of a lane: whatever is due in it, by whichever worker holds it. */
    async run(organizationId: string, threadId: string): Promise<void> {
      const thread = await lanes.claim(organizationId, threadId, settings.leaseMs);
      if (!thread) {
        const current = await lanes.findThread(organizationId, threadId);
        if (current)
          await schedule(organizationId, threadId, new Date(Date.now() + LANE_BUSY_RETRY_MS));
        return;
      }
      let next: Date | null;
      try {
        next = await work(thread);
      } finally {
        await lanes.release(organizationId, threadId);
      }
      if (next) await schedule(organizationId, threadId, next);
    },
  };
}
