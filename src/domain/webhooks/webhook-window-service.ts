import type { Db } from "../../db/client.ts";
import type { MessageSource } from "../../db/schema/index.ts";
import { AppError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { ModelError } from "../../models/model-errors.ts";
import type { AgentRepo } from "../agents/agent-repo.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { ConversationRepo, ConversationRow } from "../conversations/conversation-repo.ts";
import { HISTORY_MESSAGES } from "../query/query-service.ts";
import { maxPartsForChannel, splitAnswer } from "./answer-split.ts";
import { type BatchedAnswerDeps, generateBatchedAnswer } from "./batched-answer.ts";
import type { WebhookDeliveryRepo } from "./webhook-delivery-repo.ts";
import type { WebhookDeliveryService } from "./webhook-delivery-service.ts";
import { type AnswerPart, errorPayload, successPayload } from "./webhook-payload.ts";
import type { WebhookWindowRepo, WebhookWindowRow } from "./webhook-window-repo.ts";
import type { WindowMessageRepo } from "./window-message-repo.ts";

export type WebhookWindowDeps = {
  db: Db;
  windows: WebhookWindowRepo;
  windowMessages: WindowMessageRepo;
  deliveries: Pick<WebhookDeliveryRepo, "insert">;
  delivery: Pick<WebhookDeliveryService, "attempt">;
  conversations: Pick<
    ConversationRepo,
    "findById" | "applyTurn" | "insertMessages" | "setMessageUsage"
  >;
  agents: Pick<AgentRepo, "findById">;
  billing: Billing;
  answers: BatchedAnswerDeps;
  /** How long a worker may answer a window before another may take it over. */
  leaseMs: number;
  logger: Logger;
};

/** Another worker answered the window first (this one outlived its lease). */
class WindowTakenError extends Error {
  override name = "WindowTakenError";
}

/** The model ended without a word: nothing to split, nothing to send. */
class EmptyAnswerError extends Error {
  override name = "EmptyAnswerError";
}

// Said when the model handed over with a tool call and wrote nothing after it.
const HANDOVER_TEXT = "A member of our team will take over this conversation shortly.";

const roundCredits = (value: number) => Math.round(value * 1e6) / 1e6;

/** What the error payload tells the receiver: our own messages, never internals. */
function describeFailure(error: unknown): { type: string; message: string } {
  if (error instanceof AppError) return { type: error.type, message: error.message };
  if (error instanceof ModelError) return { type: "INTERNAL", message: error.message };
  if (error instanceof EmptyAnswerError) return { type: "INTERNAL", message: error.message };
  return { type: "INTERNAL", message: "The answer could not be generated" };
}

/** Closes batching windows: one answer for all their messages, stored, then delivered. */
export function createWebhookWindowService(deps: WebhookWindowDeps) {
  async function generate(window: WebhookWindowRow, conversation: ConversationRow) {
    const agent = await deps.agents.findById(window.organizationId, window.agentId);
    if (!agent) throw new AppError("NOT_FOUND", "The agent of this conversation was deleted");
    const waiting = await deps.windowMessages.waiting(
      window.organizationId,
      conversation.id,
      window.messageIds,
    );
    if (waiting.length === 0)
      throw new AppError("NOT_FOUND", "The messages to answer were deleted");
    await deps.billing.assertCanRun(window.organizationId);
    const history = await deps.windowMessages.history(
      window.organizationId,
      conversation.id,
      window.messageIds,
      HISTORY_MESSAGES,
    );
    const generated = await generateBatchedAnswer(deps.answers, {
      organizationId: window.organizationId,
      agent,
      waiting,
      history,
      options: window.options,
    });
    if (generated.turn.error) throw generated.turn.error;
    const text =
      generated.turn.text.trim() === "" && generated.turn.requestedHuman
        ? HANDOVER_TEXT
        : generated.turn.text;
    if (text.trim() === "") throw new EmptyAnswerError("The model returned an empty answer");
    return { agentId: agent.id, waiting, generated, text };
  }

  async function storeAnswer(
    window: WebhookWindowRow,
    conversation: ConversationRow,
    answer: Awaited<ReturnType<typeof generate>>,
  ): Promise<string> {
    const { generated, waiting } = answer;
    const { turn, resolved } = generated;
    const organizationId = window.organizationId;
    const startAt = Math.max(Date.now(), (waiting.at(-1)?.createdAt.getTime() ?? 0) + 1);
    const texts = splitAnswer(answer.text, maxPartsForChannel(conversation.channel));
    const parts: AnswerPart[] = texts.map((text, index) => ({
      id: newId(),
      text,
      createdAt: new Date(startAt + index),
    }));
    const usage = {
      promptTokens: turn.inputTokens,
      completionTokens: turn.outputTokens,
      totalTokens: turn.inputTokens + turn.outputTokens,
      cost: roundCredits(
        (turn.inputTokens * resolved.prices.input + turn.outputTokens * resolved.prices.output) /
          1e6,
      ),
    };
    const sources: MessageSource[] = generated.passages.map((hit) => ({
      source: hit.source,
      chunk: hit.text,
      datasourceId: hit.datasourceId,
      datasourceName: hit.datasourceName,
      chunkId: hit.chunkId,
      score: hit.score,
    }));
    const inputMessageIds = waiting.map((message) => message.id);
    const model = {
      modelName: resolved.modelName,
      requestedModelName: resolved.requestedModelName,
      provider: resolved.provider,
      providerModelId: resolved.providerModelId,
    };
    const deliveryId = newId();
    await deps.db.transaction(async (tx) => {
      const updated = await deps.conversations.applyTurn(
        organizationId,
        answer.agentId,
        conversation.id,
        { status: generated.requestedHuman ? "human_requested" : "keep" },
        tx,
      );
      await deps.conversations.insertMessages(
        parts.map((part, index) => ({
          id: part.id,
          organizationId,
          conversationId: conversation.id,
          agentId: answer.agentId,
          from: "agent" as const,
          text: part.text,
          ...(index === 0 ? { sources, usage } : {}),
          createdAt: part.createdAt,
          metadata: {
            model,
            conversational: {
              windowId: window.id,
              deliveryId,
              part: index + 1,
              parts: parts.length,
              inputMessageIds,
            },
            ...(generated.requestedHuman ? { requestedHuman: true } : {}),
            ...(turn.usageEstimated ? { usageEstimated: true } : {}),
            ...(generated.attachmentsTruncated ? { attachmentsTruncated: true } : {}),
          },
        })),
        tx,
      );
      await deps.deliveries.insert(
        {
          id: deliveryId,
          organizationId,
          agentId: answer.agentId,
          conversationId: conversation.id,
          url: window.webhookUrl,
          payloadStatus: "success",
          payload: successPayload({
            conversationId: conversation.id,
            visitorId: conversation.visitorId,
            parts,
            answer: answer.text,
            sources: generated.passages.map((hit) => ({ source: hit.source, chunk: hit.text })),
            usage,
            metadata: {
              model: resolved.modelName,
              provider: resolved.provider,
              inputMessageIds,
              request_human: generated.requestedHuman,
              conversationStatus: updated?.status ?? conversation.status,
            },
          }),
        },
        tx,
      );
      if (!(await deps.windows.markAnswered(organizationId, window.id, deliveryId, tx))) {
        throw new WindowTakenError("Another worker answered this window");
      }
    });
    await charge(window, answer, parts[0]!.id, usage);
    return deliveryId;
  }

  async function charge(
    window: WebhookWindowRow,
    answer: Awaited<ReturnType<typeof generate>>,
    messageId: string,
    usage: { promptTokens: number; completionTokens: number; totalTokens: number; cost: number },
  ) {
    const { resolved, turn } = answer.generated;
    try {
      const charged = await deps.billing.charge({
        organizationId: window.organizationId,
        agentId: answer.agentId,
        feature: "chat",
        provider: resolved.provider,
        modelName: resolved.providerModelId,
        inputTokens: usage.promptTokens,
        outputTokens: usage.completionTokens,
        conversationId: window.conversationId,
        messageId,
        metadata: {
          modelName: resolved.modelName,
          conversational: { windowId: window.id, messages: answer.waiting.length },
          ...(turn.usageEstimated ? { usageEstimated: true } : {}),
        },
      });
      const cost = roundCredits(charged.creditsCharged);
      if (cost !== usage.cost) {
        await deps.conversations.setMessageUsage(window.organizationId, messageId, {
          ...usage,
          cost,
        });
      }
    } catch (error) {
      // The answer is stored and owed to the receiver; a ledger failure must not withhold it.
      deps.logger.error(
        { err: error, windowId: window.id },
        "charging a conversational answer failed",
      );
    }
  }

  async function storeFailure(
    window: WebhookWindowRow,
    conversation: ConversationRow,
    failure: { type: string; message: string },
  ): Promise<string> {
    const deliveryId = newId();
    await deps.db.transaction(async (tx) => {
      await deps.deliveries.insert(
        {
          id: deliveryId,
          organizationId: window.organizationId,
          agentId: window.agentId,
          conversationId: conversation.id,
          url: window.webhookUrl,
          payloadStatus: "error",
          payload: errorPayload({
            conversationId: conversation.id,
            visitorId: conversation.visitorId,
            inputMessageIds: window.messageIds,
            error: failure,
          }),
        },
        tx,
      );
      if (!(await deps.windows.markAnswered(window.organizationId, window.id, deliveryId, tx))) {
        throw new WindowTakenError("Another worker answered this window");
      }
    });
    return deliveryId;
  }

  async function answer(window: WebhookWindowRow): Promise<string | null> {
    const found = await deps.conversations.findById(window.organizationId, window.conversationId);
    // A deleted conversation takes its windows with it: nothing is owed to anyone.
    if (!found) return null;
    const conversation = found.conversation;
    let generated: Awaited<ReturnType<typeof generate>>;
    try {
      generated = await generate(window, conversation);
    } catch (error) {
      const failure = describeFailure(error);
      deps.logger.warn(
        {
          windowId: window.id,
          type: failure.type,
          err: error instanceof AppError ? undefined : error,
        },
        "conversational answer failed",
      );
      return storeFailure(window, conversation, failure);
    }
    return storeAnswer(window, conversation, generated);
  }

  return {
    /**
     * The job of a window: answers it when its deadline has passed (a message that extended it
     * scheduled a later job, which does it instead), then makes the first delivery attempt.
     */
    async close(organizationId: string, windowId: string): Promise<void> {
      const window = await deps.windows.claim(organizationId, windowId, deps.leaseMs);
      if (!window) {
        // Answered by a job that died before its first attempt: make it now (a no-op otherwise).
        const current = await deps.windows.findById(organizationId, windowId);
        if (current?.state === "answered" && current.deliveryId) {
          await deps.delivery.attempt(organizationId, current.deliveryId, 1, { recover: false });
        }
        return;
      }
      let deliveryId: string | null;
      try {
        deliveryId = await answer(window);
      } catch (error) {
        if (error instanceof WindowTakenError) return;
        await deps.windows.release(organizationId, windowId).catch(() => {});
        throw error;
      }
      if (deliveryId)
        await deps.delivery.attempt(organizationId, deliveryId, 1, { recover: false });
    },
  };
}

export type WebhookWindowService = ReturnType<typeof createWebhookWindowService>;
