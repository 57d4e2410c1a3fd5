import type { Db } from "../../db/client.ts";
import { executePart } from "../../db/statement-parts.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import { toNewMessageView } from "../conversations/conversation-view.ts";
import type { PublishedEvent } from "../events/event-types.ts";
import {
  type AnswerOwner,
  answerChargeRequest,
  answerMetadata,
  chargeAnswerCalls,
  chargedUsage,
  type MessageUsage,
  messageUsage,
} from "../query/answer-record.ts";
import { toStoredSource } from "../query/query-knowledge.ts";
import { splitAnswer } from "./answer-split.ts";
import type { BatchedAnswer } from "./batched-answer.ts";
import type { AnswerPart } from "./webhook-payload.ts";

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
  const { turn } = generated;
  const startAt = Math.max(Date.now(), input.after.getTime() + 1);
  const parts: AnswerPart[] = splitAnswer(input.text, input.maxParts, input.maxChars).map(
    (text, index) => ({
      id: newId(),
      text,
      createdAt: new Date(startAt + index),
    }),
  );
  const usage = messageUsage(turn, generated.resolved.prices);
  const sources = generated.sources.map(toStoredSource);
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
      ...answerMetadata(turn, {
        requestedHuman: generated.requestedHuman,
        attachmentsTruncated: generated.attachmentsTruncated,
        firstPart: index === 0,
      }),
      ...input.deliveredAs(index + 1, parts.length),
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
  billing: Pick<Billing, "charge" | "chargePart">;
  conversations: Pick<ConversationRepo, "setMessageUsage">;
  logger: Logger;
};

/** A batched answer's charge: whose it is, what it settles and where it came from. */
export type BatchedAnswerCharge = {
  owner: AnswerOwner;
  generated: BatchedAnswer;
  /** The list-price usage of the answer's first message (`batchedAnswerMessages`). */
  usage: MessageUsage;
  reservationId: string;
  /** Where the answer came from, in the event's metadata (its window, its channel). */
  metadata: Record<string, unknown>;
};

/**
 * Charges a batched answer in the transaction that stores it, as a query's answer is charged in
 * its turn's statement: the charge (settling the reservation) commits exactly when the answer's
 * messages do, and a charge that fails fails the transaction, so no answer is stored (or sent)
 * uncharged; the job then answers again. The first message keeps the cost billing charged.
 * Run it last in the transaction: billing's organization lock is then held the least.
 */
export async function chargeBatchedAnswer(
  deps: BatchedAnswerChargeDeps,
  tx: Db,
  input: BatchedAnswerCharge,
): Promise<void> {
  const { owner, usage } = input;
  const request = answerChargeRequest(owner, {
    turn: input.generated.turn,
    usage,
    reservationId: input.reservationId,
    metadata: input.metadata,
  });
  const charge = await executePart(tx, deps.billing.chargePart(request));
  await chargedUsage(deps.conversations, { ...owner, usage }, charge, tx);
}

/**
 * After the transaction committed: charges the model calls made for the answer (super
 * retrieval, comparisons), as the query path does; their failures are logged.
 */
export function chargeBatchedAnswerCalls(
  deps: BatchedAnswerChargeDeps,
  input: BatchedAnswerCharge,
  logContext: Record<string, unknown>,
): Promise<void> {
  return chargeAnswerCalls(deps, input.generated.turn, input.owner, logContext);
}
