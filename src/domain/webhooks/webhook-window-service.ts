import type { JobQueue } from "../../jobs/job-queue.ts";
import { AppError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import { ModelError } from "../../models/model-errors.ts";
import type { AgentRepo } from "../agents/agent-repo.ts";
import { type Billing, releasingOnFailure } from "../billing/billing-port.ts";
import type { ConversationRepo, ConversationRow } from "../conversations/conversation-repo.ts";
import { type AnswerPipeline, HANDOVER_TEXT, HISTORY_MESSAGES } from "../query/answer-pipeline.ts";
import type { KnowledgeLookup } from "../query/query-knowledge.ts";
import { generateBatchedAnswer } from "./batched-answer.ts";
import { afterLease, type WebhookDeliveryService } from "./webhook-delivery-service.ts";
import type { WebhookWindowRepo, WebhookWindowRow } from "./webhook-window-repo.ts";
import {
  createWindowAnswerStore,
  type GeneratedAnswer,
  type WindowAnswerStoreDeps,
  WindowTakenError,
} from "./window-answer-store.ts";
import type { WindowMessageRepo } from "./window-message-repo.ts";

export type WebhookWindowDeps = WindowAnswerStoreDeps & {
  windows: WebhookWindowRepo;
  windowMessages: WindowMessageRepo;
  delivery: Pick<WebhookDeliveryService, "attempt">;
  conversations: Pick<
    ConversationRepo,
    "findById" | "applyTurn" | "insertMessages" | "setMessageUsage"
  >;
  agents: Pick<AgentRepo, "findById">;
  billing: Billing;
  answers: AnswerPipeline;
  /** Null until a knowledge module is wired: agents then answer without retrieval. */
  knowledge: KnowledgeLookup | null;
  jobs: Pick<JobQueue, "send">;
  /** How long a worker may answer a window before another may take it over. */
  leaseMs: number;
  logger: Logger;
};

/** The model ended without a word: nothing to split, nothing to send. */
class EmptyAnswerError extends Error {
  override name = "EmptyAnswerError";
}

/** What the error payload tells the receiver: our own messages, never internals. */
function describeFailure(error: unknown): { type: string; message: string } {
  if (error instanceof AppError) return { type: error.type, message: error.message };
  if (error instanceof ModelError) return { type: "INTERNAL", message: error.message };
  if (error instanceof EmptyAnswerError) return { type: "INTERNAL", message: error.message };
  return { type: "INTERNAL", message: "The answer could not be generated" };
}

/** Closes batching windows: one answer for all their messages, stored, then delivered. */
export function createWebhookWindowService(deps: WebhookWindowDeps) {
  const { storeAnswer, storeFailure } = createWindowAnswerStore(deps);

  async function generate(
    window: WebhookWindowRow,
    conversation: ConversationRow,
  ): Promise<GeneratedAnswer> {
    const agent = await deps.agents.findById(window.organizationId, window.agentId);
    if (!agent) throw new AppError("NOT_FOUND", "The agent of this conversation was deleted");
    const waiting = await deps.windowMessages.waiting(
      window.organizationId,
      conversation.id,
      window.messageIds,
    );
    if (waiting.length === 0) {
      throw new AppError("NOT_FOUND", "The messages to answer were deleted");
    }
    const reservation = await deps.billing.reserve({
      ...deps.answers.reservation({
        organizationId: window.organizationId,
        agent,
        overrides: window.options,
        knownTexts: waiting.flatMap((message) => [message.text, JSON.stringify(message.metadata)]),
        hasAttachments: waiting.some((message) => message.attachments.length > 0),
      }),
      apiKeyId: window.apiKeyId,
    });
    return releasingOnFailure(deps.billing, reservation, async () => {
      const history = await deps.windowMessages.history(
        window.organizationId,
        conversation.id,
        window.messageIds,
        HISTORY_MESSAGES,
      );
      const generated = await generateBatchedAnswer(deps, {
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
      return { agentId: agent.id, waiting, generated, text, reservation };
    });
  }

  async function answer(window: WebhookWindowRow): Promise<string | null> {
    const found = await deps.conversations.findById(window.organizationId, window.conversationId);
    // A deleted conversation takes its windows with it: nothing is owed to anyone.
    if (!found) return null;
    const conversation = found.conversation;
    if (!conversation.aiEnabled) {
      // A person handles the conversation: their reply goes out by webhook, not the model's.
      await deps.windows.markAnswered(window.organizationId, window.id, null);
      return null;
    }
    let generated: GeneratedAnswer;
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
    return releasingOnFailure(deps.billing, generated.reservation, () =>
      storeAnswer(window, conversation, generated),
    );
  }

  return {
    /**
     * The job of a window: answers it when its deadline has passed (a message that extended it
     * scheduled a later job, which does it instead), then makes the first delivery attempt.
     */
    async close(organizationId: string, windowId: string): Promise<void> {
      const window = await deps.windows.claim(organizationId, windowId, deps.leaseMs);
      if (!window) {
        const current = await deps.windows.findById(organizationId, windowId);
        // Answered by another worker, or by one that died: should its lease run out, a job
        // scheduled for that moment takes it over (and finds it answered otherwise).
        if (current?.state === "answering" && current.leaseUntil) {
          await deps.jobs.send(
            "webhook.window",
            { organizationId, windowId },
            { startAfter: afterLease(current.leaseUntil) },
          );
          return;
        }
        // Answered by a job that died before its first attempt: make it now (a no-op otherwise).
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
      if (deliveryId) {
        await deps.delivery.attempt(organizationId, deliveryId, 1, { recover: false });
      }
    },
  };
}
