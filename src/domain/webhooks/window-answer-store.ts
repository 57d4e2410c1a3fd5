import type { Db } from "../../db/client.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { answeringModelName } from "../../models/model-registry.ts";
import type { Billing, Reservation } from "../billing/billing-port.ts";
import type { ConversationRepo, ConversationRow } from "../conversations/conversation-repo.ts";
import type { EventPublisher } from "../events/event-types.ts";
import { toSource } from "../query/query-knowledge.ts";
import { maxPartsForChannel } from "./answer-split.ts";
import type { BatchedAnswer } from "./batched-answer.ts";
import {
  answerEvents,
  type BatchedAnswerCharge,
  batchedAnswerMessages,
  chargeBatchedAnswer,
  chargeBatchedAnswerCalls,
} from "./batched-answer-record.ts";
import type { WebhookDeliveryRepo } from "./webhook-delivery-repo.ts";
import { errorPayload, successPayload } from "./webhook-payload.ts";
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
  billing: Pick<Billing, "charge" | "chargePart">;
  events: EventPublisher;
  logger: Logger;
};

/** Another worker answered the window first (this one outlived its lease). */
export class WindowTakenError extends Error {
  override name = "WindowTakenError";
}

/**
 * Closes a window in one transaction with what it owes the receiver: the answer's messages, a
 * success delivery and the answer's charge, or only an error delivery. Returns the delivery's id.
 */
export function createWindowAnswerStore(deps: WindowAnswerStoreDeps) {
  async function storeAnswer(
    window: WebhookWindowRow,
    conversation: ConversationRow,
    answer: GeneratedAnswer,
  ): Promise<string> {
    const { generated, waiting } = answer;
    const { resolved } = generated;
    const organizationId = window.organizationId;
    const inputMessageIds = waiting.map((message) => message.id);
    const deliveryId = newId();
    const { parts, rows, usage } = batchedAnswerMessages({
      organizationId,
      conversationId: conversation.id,
      agentId: answer.agentId,
      text: answer.text,
      maxParts: maxPartsForChannel(conversation.channel),
      after: waiting.at(-1)?.createdAt ?? new Date(0),
      generated,
      deliveredAs: (part, count) => ({
        conversational: { windowId: window.id, deliveryId, part, parts: count, inputMessageIds },
      }),
    });
    const charge: BatchedAnswerCharge = {
      owner: {
        organizationId,
        agentId: answer.agentId,
        apiKeyId: window.apiKeyId,
        conversationId: conversation.externalId,
        messageId: parts[0]!.id,
      },
      generated,
      usage,
      reservationId: answer.reservation.id,
      metadata: { conversational: { windowId: window.id, messages: waiting.length } },
    };
    await deps.db.transaction(async (tx) => {
      const updated = await deps.conversations.applyTurn(
        organizationId,
        answer.agentId,
        conversation.id,
        { status: generated.requestedHuman ? "human_requested" : "keep" },
        tx,
      );
      await deps.conversations.insertMessages(rows, tx);
      const handedOver = generated.requestedHuman && conversation.status !== "HUMAN_REQUESTED";
      await deps.events.publishAll(
        [
          ...answerEvents(conversation, rows),
          ...(handedOver
            ? [
                {
                  organizationId,
                  agentId: answer.agentId,
                  conversationId: conversation.externalId,
                  name: "conversation.human_requested" as const,
                  data: {
                    trigger: waiting.some((message) => message.metadata.requestedHuman === true)
                      ? "customer"
                      : "model",
                  },
                },
              ]
            : []),
        ],
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
            sources: generated.sources.map(toSource),
            usage,
            metadata: {
              model: answeringModelName(resolved),
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
      // Last: charged only with the window this worker answered, and only if all of it commits.
      await chargeBatchedAnswer(deps, tx, charge);
    });
    await chargeBatchedAnswerCalls(deps, charge, { windowId: window.id });
    return deliveryId;
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
