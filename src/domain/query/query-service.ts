import { AppError } from "../../lib/errors.ts";
import type { AgentModelName } from "../../models/model-catalog.ts";
import { ModelProviderError } from "../../models/model-failure.ts";
import type { ModelRegistry } from "../../models/model-registry.ts";
import { estimateTokens } from "../../models/token-estimate.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import type { AgentService } from "../agents/agent-service.ts";
import { datastoreIdsOf } from "../agents/agent-tools.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type { ConversationTurns } from "../conversations/conversation-turns.ts";
import { createAnswerRecorder } from "./answer-recorder.ts";
import type { AttachmentReader } from "./attachment-reader.ts";
import { asksForHuman } from "./human-request.ts";
import { type ModelTurnResult, runModelTurn } from "./model-turn.ts";
import { type KnowledgeLookup, selectPassages } from "./query-knowledge.ts";
import { buildQueryPrompt } from "./query-prompt.ts";
import type {
  ConversationalQueue,
  QueryCaller,
  QueryRequest,
  QueryResponse,
  QueuedQueryResponse,
} from "./query-types.ts";

/** The spec's context window: the last 24 messages of the conversation. */
export const HISTORY_MESSAGES = 24;

export type QuerySettings = {
  historyTokenBudget: number;
  knowledgeTopK: number;
  knowledgeTokenBudget: number;
  knowledgeMinRelevance: number;
  modelTimeoutMs: number;
  modelMaxRetries: number;
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
   * Throws USAGE_LIMIT (402) when the organization cannot run the query. For an agent with
   * datastores the allowance is read in the statement that reads them, and the datastores come
   * back ready to search.
   */
  async function checkAllowance(caller: QueryCaller, agent: AgentRow, query: string) {
    const datastoreIds = datastoreIdsOf(agent.tools);
    if (datastoreIds.length === 0) {
      await deps.billing.assertCanRun(caller.organizationId);
      return null;
    }
    const knowledge = await deps.knowledge.open(
      { organizationId: caller.organizationId, datastoreIds, query },
      deps.billing.allowancePart(caller.organizationId),
    );
    await knowledge.along();
    return knowledge;
  }

  async function prepare(
    caller: QueryCaller,
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
    const [allowance, targetLookup] = await Promise.allSettled([
      checkAllowance(caller, agent, request.query),
      deps.turns.resolveTarget(caller.organizationId, agentId, request),
    ]);
    const knowledge = settled(allowance);
    const target = settled(targetLookup);
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
          turn = await runModelTurn({
            resolved,
            system: prompt.system,
            messages: prompt.messages,
            temperature: agent.temperature,
            timeoutMs: settings.modelTimeoutMs,
            maxRetries: settings.modelMaxRetries,
            signal: options.signal,
            onText: options.onText,
          });
        } catch (error) {
          if (error instanceof ModelProviderError) throw new AppError("INTERNAL", error.message);
          throw error;
        }
        const response = await recorder.record({
          caller,
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
