import type { Db } from "../../db/client.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Billing, Reservation } from "../billing/billing-port.ts";
import type { ConversationRepo, ConversationRow } from "../conversations/conversation-repo.ts";
import { messageUsage, roundCredits } from "../query/answer-recorder.ts";
import { chargeModelCalls } from "../query/model-calls.ts";
import { toSource, toStoredSource } from "../query/query-knowledge.ts";
import { maxPartsForChannel, splitAnswer } from "./answer-split.ts";
import type { BatchedAnswer } from "./batched-answer.ts";
import type { WebhookDeliveryRepo } from "./webhook-delivery-repo.ts";
import { type AnswerPart, errorPayload, successPayload } from "./webhook-payload.ts";
import type { WebhookWindowRepo, WebhookWindowRow } from "./webhook-window-repo.ts";
import type { WindowMessage } from "./window-message-repo.ts";

/** A window's answer, generated and not yet stored. */
export type GeneratedAnswer = {
  agentId: string;
  waiting: WindowMessage[];
  generated: BatchedAnswer;
  /** The text to send: the model's, or the handover sentence when it only handed over. */
  text: string;
  /** What billing holds for the answer: its charge settles it. */
  reservation: Reservation;
};

export type WindowAnswerStoreDeps = {
  db: Db;
  windows: Pick<WebhookWindowRepo, "markAnswered">;
  deliveries: Pick<WebhookDeliveryRepo, "insert">;
  conversations: Pick<ConversationRepo, "applyTurn" | "insertMessages" | "setMessageUsage">;
  billing: Pick<Billing, "charge">;
  logger: Logger;
};

/** Another worker answered the window first (this one outlived its lease). */
export class WindowTakenError extends Error {
  override name = "WindowTakenError";
}

/**
 * Closes a window in one transaction with what it owes the receiver: the answer's messages and
 * a success delivery, or only an error delivery. Returns the delivery's id.
 */
export function createWindowAnswerStore(deps: WindowAnswerStoreDeps) {
  async function storeAnswer(
    window: WebhookWindowRow,
    conversation: ConversationRow,
    answer: GeneratedAnswer,
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
    const usage = messageUsage(turn, resolved.prices);
    const sources = generated.passages.map(toStoredSource);
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
            ...(index === 0 && turn.failedModels.length > 0
              ? { failedModels: turn.failedModels }
              : {}),
            ...(index === 0 && turn.comparisons.length > 0
              ? { comparisons: turn.comparisons }
              : {}),
            ...(index === 0 && turn.superRetrieval ? { superRetrieval: turn.superRetrieval } : {}),
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
            conversationId: conversation.externalId,
            visitorId: conversation.visitorId,
            parts,
            answer: answer.text,
            sources: generated.passages.map(toSource),
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
    await charge(window, conversation, answer, parts[0]!.id, usage);
    return deliveryId;
  }

  async function charge(
    window: WebhookWindowRow,
    conversation: ConversationRow,
    answer: GeneratedAnswer,
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
        conversationId: conversation.externalId,
        messageId,
        reservationId: answer.reservation.id,
        apiKeyId: window.apiKeyId,
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
      await chargeModelCalls(deps.billing, answer.generated.calls, {
        organizationId: window.organizationId,
        apiKeyId: window.apiKeyId,
        agentId: answer.agentId,
        conversationId: conversation.externalId,
        messageId,
        onError: (error) =>
          deps.logger.error({ err: error, windowId: window.id }, "charging a model call failed"),
      });
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
            conversationId: conversation.externalId,
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

  return { storeAnswer, storeFailure };
}
