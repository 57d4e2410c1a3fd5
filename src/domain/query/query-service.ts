import { AppError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { ModelProviderError } from "../../models/model-failure.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import type { AgentService } from "../agents/agent-service.ts";
import { datastoreIdsOf } from "../agents/agent-tools.ts";
import { type Billing, type Reservation, releasingOnFailure } from "../billing/billing-port.ts";
import { type AnswerCaller, refuseOtherAgent } from "../caller.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type { ConversationTurns, TurnTarget } from "../conversations/conversation-turns.ts";
import type { Passage } from "../knowledge/knowledge-search.ts";
import type { HistoryMessage, Sampling } from "./answer-input.ts";
import {
  type AnswerPipeline,
  type AnswerTurn,
  HISTORY_MESSAGES,
  type RunOptions,
} from "./answer-pipeline.ts";
import { createAnswerRecorder } from "./answer-recorder.ts";
import { asksForHuman } from "./human-request.ts";
import { chargeModelCalls } from "./model-calls.ts";
import type { KnowledgeLookup, OpenedKnowledge } from "./query-knowledge.ts";
import type { QueryRequest, QueryResponse, QueuedQueryResponse } from "./query-request.ts";
import type { ConversationalQueue } from "./query-types.ts";

export type QueryServiceDeps = {
  agents: Pick<AgentService, "requireAgent">;
  turns: ConversationTurns;
  conversations: Pick<ConversationRepo, "recentMessages" | "setMessageUsage">;
  billing: Billing;
  knowledge: KnowledgeLookup;
  answers: AnswerPipeline;
  /** Conversational mode (the webhooks module); without it such agents answer synchronously. */
  conversational?: ConversationalQueue;
  /** Where a failed charge of a helper model call is reported. */
  logger?: Pick<Logger, "error">;
};

/**
 * What a caller other than the query endpoint sets for one answer (the OpenAI-compatible API);
 * the query endpoint sets none of it.
 */
export type PrepareOptions = {
  /** The conversation so far as the caller sent it: replaces the stored messages in the prompt. */
  history?: readonly HistoryMessage[];
  sampling?: Sampling;
  /** Answer in this request even for an agent in conversational mode (no webhook to deliver to). */
  inline?: boolean;
  /** The id the answer is stored under, chosen up front so a stream can name it first. */
  messageId?: string;
  /** A visitor without an API key asks (the public chat): a new conversation is bound to it. */
  anonymous?: boolean;
};

/** A query checked and ready: everything that can fail with a 4xx has been done. */
export type PreparedQuery =
  | { kind: "queued"; response: QueuedQueryResponse }
  | {
      kind: "answer";
      /**
       * The knowledge passages the answer is given, best first: its `sources`, unless the offline
       * responder answers (its sources are the passages it quoted).
       */
      passages: readonly Passage[];
      run(options?: RunOptions): Promise<QueryResponse>;
    };

function settled<Value>(result: PromiseSettledResult<Value>): Value {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}

export function createQueryService(deps: QueryServiceDeps) {
  const recorder = createAnswerRecorder(deps);

  /**
   * Reserves the most the answer can cost, or throws USAGE_LIMIT (402) when the organization
   * cannot run the query. For an agent with datastores the reservation is made in the statement
   * that reads them, and the datastores come back ready to search.
   */
  async function reserveAnswer(
    caller: AnswerCaller,
    agent: AgentRow,
    request: QueryRequest,
    sampling: Sampling | undefined,
  ) {
    const datastoreIds = datastoreIdsOf(agent.tools);
    const reservation = {
      ...deps.answers.reservation({
        organizationId: caller.organizationId,
        agent,
        overrides: request,
        knownTexts: [request.context, request.query, request.query],
        hasAttachments: (request.attachments ?? []).length > 0,
        sampling,
      }),
      apiKeyId: caller.apiKeyId ?? null,
    };
    if (datastoreIds.length === 0) {
      return { reservation: await deps.billing.reserve(reservation), knowledge: null };
    }
    const opened = await deps.knowledge.open(
      { organizationId: caller.organizationId, datastoreIds, query: request.query },
      deps.billing.reservePart(reservation),
    );
    const knowledge: OpenedKnowledge = {
      search: (options) => opened.search(options),
      searchQuery: (query, options) =>
        deps.knowledge.search({
          organizationId: caller.organizationId,
          datastoreIds,
          query,
          topK: options.topK,
        }),
    };
    return { reservation: await opened.along(), knowledge };
  }

  async function prepare(
    caller: AnswerCaller,
    agentId: string,
    request: QueryRequest,
    options: PrepareOptions = {},
  ): Promise<PreparedQuery> {
    refuseOtherAgent(caller, agentId);
    const agent = await deps.agents.requireAgent(caller.organizationId, agentId);
    if (
      !options.inline &&
      deps.conversational &&
      agent.useConversationalMode &&
      (request.channel ?? "api") === "api"
    ) {
      return {
        kind: "queued",
        response: await deps.conversational.enqueue({ caller, agent, request }),
      };
    }
    // Both at once; their failures are reported in this order: 402, then 404/400.
    const [reserved, targetLookup] = await Promise.allSettled([
      reserveAnswer(caller, agent, request, options.sampling),
      deps.turns.resolveTarget(caller.organizationId, agentId, request),
    ]);
    const { reservation, knowledge } = settled(reserved);
    const target = settled(targetLookup);
    if (target.existing && !target.existing.aiEnabled) {
      // A person handles this conversation: the message is theirs to answer, not the model's.
      await deps.billing.release(reservation);
      return humanHandled(caller, agent, request, target);
    }
    return releasingOnFailure(deps.billing, reservation, () =>
      prepareAnswer(caller, agent, request, options, {
        reservation,
        knowledge,
        target,
      }),
    );
  }

  /**
   * A query in a conversation a person handles (docs/handoff.md): the message is stored, and
   * the answer is empty, with no model call and no charge.
   */
  function humanHandled(
    caller: AnswerCaller,
    agent: AgentRow,
    request: QueryRequest,
    target: TurnTarget,
  ): PreparedQuery {
    return {
      kind: "answer",
      passages: [],
      async run() {
        const messageId = newId();
        const conversation = await deps.turns.recordTurn({
          organizationId: caller.organizationId,
          agentId: agent.id,
          target,
          status: "keep",
          contact: request.contact,
          messages: [
            {
              id: messageId,
              from: "human",
              text: request.query,
              attachments: (request.attachments ?? []).map(({ url }) => ({ url })),
              metadata: request.context ? { context: request.context } : {},
              createdAt: new Date(),
            },
          ],
        });
        return {
          answer: "",
          sources: [],
          messageId,
          conversationId: conversation.externalId,
          visitorId: conversation.visitorId,
          request_human: false,
          status: conversation.status,
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, cost: 0 },
          approvals: [],
        };
      },
    };
  }

  /** After the reservation: reads and builds what the model needs; runs it when asked. */
  async function prepareAnswer(
    caller: AnswerCaller,
    agent: AgentRow,
    request: QueryRequest,
    options: PrepareOptions,
    reserved: { reservation: Reservation; knowledge: OpenedKnowledge | null; target: TurnTarget },
  ): Promise<PreparedQuery> {
    const { reservation, knowledge, target } = reserved;
    const humanRequested = asksForHuman(request.query);
    const answer = await deps.answers.prepare({
      agent,
      overrides: request,
      query: request.query,
      context: request.context,
      humanRequested,
      knowledge,
      history:
        options.history ??
        (target.existing
          ? deps.conversations.recentMessages(
              caller.organizationId,
              target.existing.id,
              HISTORY_MESSAGES,
            )
          : []),
      attachmentUrls: (request.attachments ?? []).map((attachment) => attachment.url),
      sampling: options.sampling,
      publicAudience: options.anonymous,
    });
    return {
      kind: "answer",
      passages: answer.passages,
      async run(runOptions: RunOptions = {}) {
        const startedAt = new Date();
        let turn: AnswerTurn;
        try {
          turn = await releasingOnFailure(deps.billing, reservation, () => answer.run(runOptions));
        } catch (error) {
          // Super retrieval's calls were made whether or not an answer followed.
          await chargeModelCalls(deps.billing, answer.retrievalCalls, {
            organizationId: caller.organizationId,
            apiKeyId: caller.apiKeyId ?? null,
            agentId: agent.id,
            conversationId: null,
            messageId: null,
            onError: (chargeError) =>
              deps.logger?.error({ err: chargeError }, "charging a model call failed"),
          });
          if (error instanceof ModelProviderError) throw new AppError("INTERNAL", error.message);
          throw error;
        }
        const response = await recorder.record({
          caller,
          reservation,
          agentId: agent.id,
          agentVersion: agent.version,
          request,
          target,
          attachments: answer.attachments,
          turn,
          startedAt,
          humanRequested,
          messageId: options.messageId,
          anonymous: options.anonymous,
        });
        if (turn.error) throw new AppError("INTERNAL", turn.error.message);
        return response;
      },
    };
  }

  return { prepare };
}

export type QueryService = ReturnType<typeof createQueryService>;
