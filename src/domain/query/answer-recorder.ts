import { isRejectedByDatabase } from "../../db/statement-parts.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { answeringModelName } from "../../models/model-registry.ts";
import type { Billing, Reservation } from "../billing/billing-port.ts";
import type { AnswerCaller } from "../caller.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type {
  ConversationTurns,
  TurnRecord,
  TurnTarget,
} from "../conversations/conversation-turns.ts";
import { type AnswerTurn, HANDOVER_TEXT } from "./answer-pipeline.ts";
import {
  type AnswerOwner,
  answerChargeRequest,
  answerMetadata,
  chargeAnswerCalls,
  chargedUsage,
  messageUsage,
} from "./answer-record.ts";
import type { AttachmentText } from "./attachment-reader.ts";
import { toSource, toStoredSource } from "./query-knowledge.ts";
import type { QueryRequest, QueryResponse } from "./query-request.ts";

export type AnsweredTurn = {
  caller: AnswerCaller;
  /** The caller has no API key: a conversation this turn starts is marked startedAnonymously. */
  anonymous?: boolean;
  /** What billing holds for this answer: its charge settles it. */
  reservation: Reservation;
  agentId: string;
  /** The version of the agent the answer was made with (its row's `version`). */
  agentVersion: number;
  request: QueryRequest;
  target: TurnTarget;
  attachments: AttachmentText[];
  /** The model's turn; its `resolved` is the model that answered. */
  turn: AnswerTurn;
  startedAt: Date;
  /** The customer asked for a person in this message. */
  humanRequested: boolean;
  /** The answer's id when the caller chose it up front; a new one otherwise. */
  messageId?: string;
};

/**
 * After the model: stores the customer's message and the answer with the conversation, the
 * contact and the chat's charge (one statement, or one transaction with a contact to match), and
 * builds the spec's response. `usage.cost` is what billing charged.
 */
export function createAnswerRecorder(deps: {
  turns: Pick<ConversationTurns, "recordTurnWith">;
  conversations: Pick<ConversationRepo, "setMessageUsage">;
  billing: Pick<Billing, "charge" | "chargePart">;
  logger?: Pick<Logger, "error">;
}) {
  return {
    async record(input: AnsweredTurn): Promise<QueryResponse> {
      const { caller, agentId, request, turn } = input;
      const { resolved } = turn;
      const requestHuman = input.humanRequested || turn.requestedHuman;
      const answer =
        turn.text === "" && turn.requestedHuman && turn.outcome === "complete"
          ? HANDOVER_TEXT
          : turn.text;
      const usage = messageUsage(turn, resolved.prices);
      const sources = turn.sources.map(toStoredSource);
      const messageId = input.messageId ?? newId();
      const answeredAt = new Date(Math.max(Date.now(), input.startedAt.getTime() + 1));
      const turnRecord: TurnRecord = {
        organizationId: caller.organizationId,
        agentId,
        target: input.target,
        status: requestHuman ? "human_requested" : "reopen",
        contact: request.contact,
        anonymous: input.anonymous ?? false,
        messages: [
          {
            id: newId(),
            from: "human",
            text: request.query,
            attachments: (request.attachments ?? []).map(({ url }) => ({ url })),
            metadata: {
              ...(request.context ? { context: request.context } : {}),
              ...(input.humanRequested ? { requestedHuman: true } : {}),
            },
            createdAt: input.startedAt,
          },
          {
            id: messageId,
            from: "agent",
            text: answer,
            sources,
            usage,
            agentVersion: input.agentVersion,
            metadata: answerMetadata(turn, {
              requestedHuman: turn.requestedHuman,
              attachmentsTruncated: input.attachments.some((file) => file.truncated),
            }),
            createdAt: answeredAt,
          },
        ],
      };
      const owner: AnswerOwner = {
        organizationId: caller.organizationId,
        agentId,
        apiKeyId: caller.apiKeyId ?? null,
        conversationId: input.target.conversationId,
        messageId,
      };
      const chargeRequest = answerChargeRequest(owner, {
        turn,
        usage,
        reservationId: input.reservation.id,
      });
      // The turn and its charge share one statement. The model's tokens are spent whether or not
      // storing succeeds, so when the database refuses that statement the charge runs alone.
      const [conversation, charge] = await deps.turns
        .recordTurnWith(turnRecord, deps.billing.chargePart(chargeRequest))
        .catch(async (error: unknown) => {
          if (isRejectedByDatabase(error)) await deps.billing.charge(chargeRequest);
          throw error;
        });
      const charged = await chargedUsage(
        deps.conversations,
        { organizationId: caller.organizationId, messageId, usage },
        charge,
      );
      await chargeAnswerCalls(deps, turn, owner);
      return {
        answer,
        sources: turn.sources.map(toSource),
        messageId,
        conversationId: conversation.externalId,
        visitorId: conversation.visitorId,
        request_human: requestHuman,
        status: conversation.status,
        usage: charged,
        approvals: [],
        ...(turn.extended
          ? {
              model: answeringModelName(resolved),
              ...(turn.comparisons.length > 0 ? { comparisons: turn.comparisons } : {}),
            }
          : {}),
      };
    },
  };
}
