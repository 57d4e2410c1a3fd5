import type { Db } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import { answeringModelName } from "../../models/model-registry.ts";
import type { Billing, ChargeRequest, ChargeResult } from "../billing/billing-port.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type { AnswerTurn } from "./answer-pipeline.ts";
import { chargeModelCalls } from "./model-calls.ts";

/**
 * How an answer is recorded, whichever path gave it (a query, a conversational window, a
 * channel's turn): its message's metadata and usage, its charge, the cost its message keeps, and
 * the charges of the model calls made for it.
 */

const roundCredits = (value: number) => Math.round(value * 1e6) / 1e6;

/** The usage block of an answer: token counts and their list price in credits. */
export function messageUsage(
  turn: { inputTokens: number; outputTokens: number },
  prices: { input: number; output: number },
) {
  return {
    promptTokens: turn.inputTokens,
    completionTokens: turn.outputTokens,
    totalTokens: turn.inputTokens + turn.outputTokens,
    cost: roundCredits((turn.inputTokens * prices.input + turn.outputTokens * prices.output) / 1e6),
  };
}

export type MessageUsage = ReturnType<typeof messageUsage>;

/**
 * The metadata of an answer's message: the model that answered (`turn.resolved`) and what
 * happened on the way. A split answer's later parts (`firstPart: false`) leave the trace
 * (failed models, comparisons, super retrieval) to the first.
 */
export function answerMetadata(
  turn: AnswerTurn,
  input: {
    /** The message hands over to a person. */
    requestedHuman: boolean;
    attachmentsTruncated: boolean;
    firstPart?: boolean;
  },
): Record<string, unknown> {
  const { resolved } = turn;
  const trace = input.firstPart ?? true;
  return {
    model: {
      modelName: answeringModelName(resolved),
      requestedModelName: resolved.requestedModelName,
      provider: resolved.provider,
      providerModelId: resolved.providerModelId,
    },
    ...(trace && turn.failedModels.length > 0 ? { failedModels: turn.failedModels } : {}),
    ...(trace && turn.comparisons.length > 0 ? { comparisons: turn.comparisons } : {}),
    ...(trace && turn.superRetrieval ? { superRetrieval: turn.superRetrieval } : {}),
    ...(input.requestedHuman ? { requestedHuman: true } : {}),
    ...(turn.usageEstimated ? { usageEstimated: true } : {}),
    ...(turn.outcome !== "complete" ? { interrupted: turn.outcome } : {}),
    ...(input.attachmentsTruncated ? { attachmentsTruncated: true } : {}),
  };
}

/** Who an answer is charged to and which message it is: its charge and its calls' name them. */
export type AnswerOwner = {
  organizationId: string;
  agentId: string;
  /** The key the answer was asked with (its monthly budget pays), if any. */
  apiKeyId: string | null;
  /** The conversation's API id, as consumption events name it. */
  conversationId: string;
  /** The answer's (first) message. */
  messageId: string;
};

/** The chat charge of an answer: its tokens, settling the reservation made for it. */
export function answerChargeRequest(
  owner: AnswerOwner,
  answer: {
    turn: AnswerTurn;
    usage: MessageUsage;
    reservationId: string;
    /** Where the answer came from, added to the event's metadata (e.g. its window). */
    metadata?: Record<string, unknown>;
  },
): ChargeRequest {
  const { resolved, usageEstimated } = answer.turn;
  return {
    organizationId: owner.organizationId,
    agentId: owner.agentId,
    feature: "chat",
    provider: resolved.provider,
    modelName: resolved.providerModelId,
    inputTokens: answer.usage.promptTokens,
    outputTokens: answer.usage.completionTokens,
    conversationId: owner.conversationId,
    messageId: owner.messageId,
    reservationId: answer.reservationId,
    apiKeyId: owner.apiKeyId,
    metadata: {
      modelName: resolved.modelName,
      ...answer.metadata,
      ...(usageEstimated ? { usageEstimated: true } : {}),
    },
  };
}

/**
 * The answer's usage as billing charged it: when the charge differs from the list price (the
 * credits ran short), the stored message is corrected (in `tx` when given) and the returned
 * usage carries the charged cost.
 */
export async function chargedUsage(
  conversations: Pick<ConversationRepo, "setMessageUsage">,
  answer: { organizationId: string; messageId: string; usage: MessageUsage },
  charge: ChargeResult,
  tx?: Db,
): Promise<MessageUsage> {
  const cost = roundCredits(charge.creditsCharged);
  if (cost === answer.usage.cost) return answer.usage;
  const usage = { ...answer.usage, cost };
  await conversations.setMessageUsage(answer.organizationId, answer.messageId, usage, tx);
  return usage;
}

/**
 * Charges the model calls made for a stored answer (super retrieval, comparisons), each its own
 * event, after the answer's own charge: the customer has the answer, so a call's charge that
 * fails is logged, not thrown.
 */
export function chargeAnswerCalls(
  deps: { billing: Pick<Billing, "charge">; logger?: Pick<Logger, "error"> | undefined },
  turn: Pick<AnswerTurn, "calls">,
  owner: AnswerOwner,
  logContext: Record<string, unknown> = {},
): Promise<void> {
  return chargeModelCalls(deps.billing, turn.calls, {
    ...owner,
    onError: (error) =>
      deps.logger?.error({ err: error, ...logContext }, "charging a model call failed"),
  });
}
