import type { Db } from "../../db/client.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { answeringModelName } from "../../models/model-registry.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import { toNewMessageView } from "../conversations/conversation-view.ts";
import type { PublishedEvent } from "../events/event-types.ts";
import { messageUsage, roundCredits } from "../query/answer-recorder.ts";
import { chargeModelCalls } from "../query/model-calls.ts";
import { toStoredSource } from "../query/query-knowledge.ts";
import { splitAnswer } from "./answer-split.ts";
import type { BatchedAnswer } from "./batched-answer.ts";
import type { AnswerPart } from "./webhook-payload.ts";

type MessageUsage = ReturnType<typeof messageUsage>;

/**
 * A batched answer as the conversation's agent messages: split into at most `maxParts`, each
 * part a message after the last waiting one; the first carries the sources and usage. The
 * caller adds where the answer went (`deliveredAs`) to every part's metadata.
 */
export function batchedAnswerMessages(input: {
  organizationId: string;
  conversationId: string;
  agentId: string;
  text: string;
  maxParts: number;
  /** The platform's limit of one message (none for webhooks). */
  maxChars?: number;
  /** The last waiting message: every part comes after it. */
  after: Date;
  generated: BatchedAnswer;
  deliveredAs(part: number, parts: number): Record<string, unknown>;
}) {
  const { generated } = input;
  const { turn, resolved } = generated;
  const startAt = Math.max(Date.now(), input.after.getTime() + 1);
  const parts: AnswerPart[] = splitAnswer(input.text, input.maxParts, input.maxChars).map(
    (text, index) => ({
      id: newId(),
      text,
      createdAt: new Date(startAt + index),
    }),
  );
  const usage = messageUsage(turn, resolved.prices);
  const sources = generated.sources.map(toStoredSource);
  const model = {
    modelName: answeringModelName(resolved),
    requestedModelName: resolved.requestedModelName,
    provider: resolved.provider,
    providerModelId: resolved.providerModelId,
  };
  const rows = parts.map((part, index) => ({
    id: part.id,
    organizationId: input.organizationId,
    conversationId: input.conversationId,
    agentId: input.agentId,
    from: "agent" as const,
    text: part.text,
    ...(index === 0 ? { sources, usage } : {}),
    agentVersion: generated.agentVersion,
    createdAt: part.createdAt,
    metadata: {
      model,
      ...input.deliveredAs(index + 1, parts.length),
      ...(index === 0 && turn.failedModels.length > 0 ? { failedModels: turn.failedModels } : {}),
      ...(index === 0 && turn.comparisons.length > 0 ? { comparisons: turn.comparisons } : {}),
      ...(index === 0 && turn.superRetrieval ? { superRetrieval: turn.superRetrieval } : {}),
      ...(generated.requestedHuman ? { requestedHuman: true } : {}),
      ...(turn.usageEstimated ? { usageEstimated: true } : {}),
      ...(generated.attachmentsTruncated ? { attachmentsTruncated: true } : {}),
    },
  }));
  return { parts, rows, usage };
}

/** The stored parts of an answer as the live events that announce them. */
export function answerEvents(
  conversation: { organizationId: string; agentId: string; externalId: string },
  rows: ReturnType<typeof batchedAnswerMessages>["rows"],
): PublishedEvent[] {
  return rows.map((row) => ({
    organizationId: conversation.organizationId,
    agentId: conversation.agentId,
    conversationId: conversation.externalId,
    name: "message.created",
    data: {
      message: toNewMessageView(row),
    },
  }));
}

export type BatchedAnswerChargeDeps = {
  db: Db;
  billing: Pick<Billing, "charge">;
  conversations: Pick<ConversationRepo, "setMessageUsage">;
  logger: Logger;
};

/**
 * Charges a stored batched answer (settling its reservation) and the model calls around it,
 * and corrects the first message's cost to what billing charged. The answer is owed whatever
 * the ledger says, so a charge that fails is logged, never thrown.
 */
export async function chargeBatchedAnswer(
  deps: BatchedAnswerChargeDeps,
  input: {
    organizationId: string;
    agentId: string;
    apiKeyId: string | null;
    /** The conversation's API id, as consumption events name it. */
    conversationId: string;
    messageId: string;
    usage: MessageUsage;
    generated: BatchedAnswer;
    reservationId: string;
    metadata: Record<string, unknown>;
    /** Identifies the answer in the log when charging fails. */
    logContext: Record<string, unknown>;
  },
): Promise<void> {
  const { resolved, turn } = input.generated;
  try {
    const charged = await deps.billing.charge({
      organizationId: input.organizationId,
      agentId: input.agentId,
      feature: "chat",
      provider: resolved.provider,
      modelName: resolved.providerModelId,
      inputTokens: input.usage.promptTokens,
      outputTokens: input.usage.completionTokens,
      conversationId: input.conversationId,
      messageId: input.messageId,
      reservationId: input.reservationId,
      apiKeyId: input.apiKeyId,
      metadata: {
        modelName: resolved.modelName,
        ...input.metadata,
        ...(turn.usageEstimated ? { usageEstimated: true } : {}),
      },
    });
    const cost = roundCredits(charged.creditsCharged);
    if (cost !== input.usage.cost) {
      await deps.conversations.setMessageUsage(input.organizationId, input.messageId, {
        ...input.usage,
        cost,
      });
    }
    await chargeModelCalls(deps.billing, turn.calls, {
      organizationId: input.organizationId,
      apiKeyId: input.apiKeyId,
      agentId: input.agentId,
      conversationId: input.conversationId,
      messageId: input.messageId,
      onError: (error) =>
        deps.logger.error({ err: error, ...input.logContext }, "charging a model call failed"),
    });
  } catch (error) {
    deps.logger.error({ err: error, ...input.logContext }, "charging a batched answer failed");
  }
}
