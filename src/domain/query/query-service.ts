import type { AgentsConfig } from "../../config/agents-config.ts";
import { AppError } from "../../lib/errors.ts";
import type { AgentModelName } from "../../models/model-catalog.ts";
import { ModelProviderError } from "../../models/model-failure.ts";
import type { ModelRegistry } from "../../models/model-registry.ts";
import { estimateTokens } from "../../models/token-estimate.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import type { AgentService } from "../agents/agent-service.ts";
import { datastoreIdsOf } from "../agents/agent-tools.ts";
import {
  type Billing,
  RESERVATION_MARGIN_MS,
  type Reservation,
  releasingOnFailure,
} from "../billing/billing-port.ts";
import type { Caller } from "../caller.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type { ConversationTurns, TurnTarget } from "../conversations/conversation-turns.ts";
import { createAnswerRecorder } from "./answer-recorder.ts";
import type { AttachmentReader } from "./attachment-reader.ts";
import { asksForHuman } from "./human-request.ts";
import { type ModelTurnResult, runModelTurn } from "./model-turn.ts";
import { type KnowledgeLookup, type OpenedKnowledge, selectPassages } from "./query-knowledge.ts";
import { buildQueryPrompt } from "./query-prompt.ts";
import type {
  ConversationalQueue,
  QueryRequest,
  QueryResponse,
  QueuedQueryResponse,
} from "./query-types.ts";
import { type PromptBudgets, promptCharsBound, turnReservation } from "./usage-bound.ts";

/** The spec's context window: the last 24 messages of the conversation. */
export const HISTORY_MESSAGES = 24;

export type QuerySettings = PromptBudgets & {
  knowledgeTopK: number;
  knowledgeMinRelevance: number;
  modelTimeoutMs: number;
  modelMaxRetries: number;
  /** Most tokens the model may write per step. */
  maxOutputTokens: number;
  /** How long credits reserved for an answer are held at most (its time bounds, and a margin). */
  reservationHoldMs: number;
};

export type QueryServiceDeps = {
  agents: Pick<AgentService, "requireAgent">;
  turns: ConversationTurns;
  conversations: Pick<ConversationRepo, "recentMessages" | "setMessageUsage">;
  models: Pick<ModelRegistry, "resolveLanguageModel">;
  billing: Billing;
  knowledge: KnowledgeLookup;
  attachments: Pick<AttachmentReader, "read">;
  /** Conversational mode (the webhooks module); without it such agents answer synchronously. */
  conversational?: ConversationalQueue;
  settings: QuerySettings;
};

export type RunOptions = {
  /** Receives the answer as it is written (streaming). */
  onText?: (fragment: string) => Promise<void> | void;
  /** Aborted when the client disconnects: the model stops, the partial answer is stored. */
  signal?: AbortSignal;
};

const MODEL_MAX_RETRIES = 2;

/** The configuration both answer paths (direct and conversational) read their settings from. */
export type QueryConfig = Pick<
  AgentsConfig,
  | "historyTokenBudget"
  | "knowledgeTopK"
  | "knowledgeTokenBudget"
  | "knowledgeMinRelevance"
  | "attachments"
>;

/** The query settings of both answer paths, from the configuration. */
export function querySettingsOf(
  agents: QueryConfig,
  model: { timeoutMs: number; maxOutputTokens: number },
): QuerySettings {
  return {
    historyTokenBudget: agents.historyTokenBudget,
    knowledgeTopK: agents.knowledgeTopK,
    knowledgeTokenBudget: agents.knowledgeTokenBudget,
    knowledgeMinRelevance: agents.knowledgeMinRelevance,
    attachmentTokenBudget: agents.attachments.tokenBudget,
    modelTimeoutMs: model.timeoutMs,
    modelMaxRetries: MODEL_MAX_RETRIES,
    maxOutputTokens: model.maxOutputTokens,
    reservationHoldMs: agents.attachments.timeoutMs + model.timeoutMs + RESERVATION_MARGIN_MS,
  };
}

/** A query checked and ready: everything that can fail with a 4xx has been done. */
export type PreparedQuery =
  | { kind: "queued"; response: QueuedQueryResponse }
  | { kind: "answer"; run(options?: RunOptions): Promise<QueryResponse> };

function settled<Value>(result: PromiseSettledResult<Value>): Value {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}

export function createQueryService(deps: QueryServiceDeps) {
  const { settings } = deps;
  const recorder = createAnswerRecorder(deps);

  /**
   * Reserves the most the answer can cost, or throws USAGE_LIMIT (402) when the organization
   * cannot run the query. For an agent with datastores the reservation is made in the statement
   * that reads them, and the datastores come back ready to search.
   */
  async function reserveAnswer(caller: Caller, agent: AgentRow, request: QueryRequest) {
    const datastoreIds = datastoreIdsOf(agent.tools);
    const reservation = turnReservation(deps.models, {
      organizationId: caller.organizationId,
      feature: "chat",
      modelName: agent.modelName as AgentModelName,
      promptChars: promptCharsBound(
        [
          request.systemPrompt || agent.systemPrompt,
          agent.userPrompt,
          request.context,
          request.query,
          request.query,
        ],
        settings,
        { knowledge: datastoreIds.length > 0, attachments: (request.attachments ?? []).length > 0 },
      ),
      maxOutputTokens: settings.maxOutputTokens,
      holdMs: settings.reservationHoldMs,
    });
    if (datastoreIds.length === 0) {
      return { reservation: await deps.billing.reserve(reservation), knowledge: null };
    }
    const knowledge = await deps.knowledge.open(
      { organizationId: caller.organizationId, datastoreIds, query: request.query },
      deps.billing.reservePart(reservation),
    );
    return { reservation: await knowledge.along(), knowledge };
  }

  async function prepare(
    caller: Caller,
    agentId: string,
    request: QueryRequest,
  ): Promise<PreparedQuery> {
    const agent = await deps.agents.requireAgent(caller.organizationId, agentId);
    if (
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
      reserveAnswer(caller, agent, request),
      deps.turns.resolveTarget(caller.organizationId, agentId, request),
    ]);
    const { reservation, knowledge } = settled(reserved);
    return releasingOnFailure(deps.billing, reservation, () =>
      prepareAnswer(caller, agent, request, reservation, knowledge, settled(targetLookup)),
    );
  }

  /** After the reservation: reads and builds what the model needs; runs it when asked. */
  async function prepareAnswer(
    caller: Caller,
    agent: AgentRow,
    request: QueryRequest,
    reservation: Reservation,
    knowledge: OpenedKnowledge | null,
    target: TurnTarget,
  ): Promise<PreparedQuery> {
    const [history, passages, attachments] = await Promise.all([
      target.existing
        ? deps.conversations.recentMessages(
            caller.organizationId,
            target.existing.id,
            HISTORY_MESSAGES,
          )
        : [],
      knowledge
        ? knowledge.search({ topK: settings.knowledgeTopK }).then((hits) =>
            selectPassages(hits, {
              minRelevance: settings.knowledgeMinRelevance,
              tokenBudget: settings.knowledgeTokenBudget,
            }),
          )
        : [],
      deps.attachments.read((request.attachments ?? []).map((attachment) => attachment.url)),
    ]);
    const humanRequested = asksForHuman(request.query);
    const prompt = buildQueryPrompt({
      agentName: agent.name,
      promptType: request.promptType ?? agent.promptType,
      systemPrompt: request.systemPrompt ? request.systemPrompt : agent.systemPrompt,
      userPrompt: agent.userPrompt,
      context: request.context,
      usesKnowledge: datastoreIdsOf(agent.tools).length > 0,
      passages,
      history,
      historyTokenBudget: settings.historyTokenBudget,
      query: request.query,
      attachments,
      humanRequested,
    });
    const promptTokens =
      estimateTokens(prompt.system) +
      prompt.messages.reduce(
        (sum, message) => sum + estimateTokens(String(message.content)) + 4,
        4,
      );
    const resolved = deps.models.resolveLanguageModel(agent.modelName as AgentModelName, {
      promptTokens,
    });

    return {
      kind: "answer",
      async run(options: RunOptions = {}) {
        const startedAt = new Date();
        let turn: ModelTurnResult;
        try {
          turn = await releasingOnFailure(deps.billing, reservation, () =>
            runModelTurn({
              resolved,
              system: prompt.system,
              messages: prompt.messages,
              temperature: agent.temperature,
              timeoutMs: settings.modelTimeoutMs,
              maxRetries: settings.modelMaxRetries,
              maxOutputTokens: settings.maxOutputTokens,
              signal: options.signal,
              onText: options.onText,
            }),
          );
        } catch (error) {
          if (error instanceof ModelProviderError) throw new AppError("INTERNAL", error.message);
          throw error;
        }
        const response = await recorder.record({
          caller,
          reservation,
          agentId: agent.id,
          request,
          target,
          passages,
          attachments,
          resolved,
          turn,
          startedAt,
          humanRequested,
        });
        if (turn.error) throw new AppError("INTERNAL", turn.error.message);
        return response;
      },
    };
  }

  return { prepare };
}

export type QueryService = ReturnType<typeof createQueryService>;
