import type { MessageSource } from "../../db/schema/index.ts";
import { AppError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AgentModelName } from "../../models/model-catalog.ts";
import { ModelProviderError } from "../../models/model-failure.ts";
import type { ModelRegistry } from "../../models/model-registry.ts";
import { estimateTokens } from "../../models/token-estimate.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import type { AgentService } from "../agents/agent-service.ts";
import { datastoreIdsOf } from "../agents/agent-tools.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type { ConversationTurns, TurnTarget } from "../conversations/conversation-turns.ts";
import type { AttachmentReader, AttachmentText } from "./attachment-reader.ts";
import { asksForHuman } from "./human-request.ts";
import { type ModelTurnResult, runModelTurn } from "./model-turn.ts";
import { type KnowledgeHit, type KnowledgeLookup, selectPassages } from "./query-knowledge.ts";
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

// Said when the model handed over with a tool call and wrote nothing after it.
const HANDOVER_TEXT = "A member of our team will take over this conversation shortly.";

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
  /** Null until a knowledge module is wired: agents then answer without retrieval. */
  knowledge: KnowledgeLookup | null;
  attachments: Pick<AttachmentReader, "read">;
  /** Issue 7 provides it; without it conversational agents answer synchronously. */
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

const roundCredits = (value: number) => Math.round(value * 1e6) / 1e6;

function settled<Value>(result: PromiseSettledResult<Value>): Value {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}

export function createQueryService(deps: QueryServiceDeps) {
  const { settings } = deps;

  async function retrieve(caller: QueryCaller, agent: AgentRow, query: string) {
    const datastoreIds = datastoreIdsOf(agent.tools);
    if (!deps.knowledge || datastoreIds.length === 0) return [];
    const hits = await deps.knowledge.search({
      organizationId: caller.organizationId,
      datastoreIds,
      query,
      topK: settings.knowledgeTopK,
    });
    return selectPassages(hits, {
      minRelevance: settings.knowledgeMinRelevance,
      tokenBudget: settings.knowledgeTokenBudget,
    });
  }

  async function prepare(
    caller: QueryCaller,
    agentId: string,
    request: QueryRequest,
  ): Promise<PreparedQuery> {
    // Three independent reads at once; their failures are reported in this order: 404, 402, 404/400.
    const [agentLookup, allowance, targetLookup] = await Promise.allSettled([
      deps.agents.requireAgent(caller.organizationId, agentId),
      deps.billing.assertCanRun(caller.organizationId),
      deps.turns.resolveTarget(caller.organizationId, agentId, request),
    ]);
    const agent = settled(agentLookup);
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
    settled(allowance);
    const target = settled(targetLookup);
    const [history, passages, attachments] = await Promise.all([
      target.existing
        ? deps.conversations.recentMessages(
            caller.organizationId,
            target.conversationId,
            HISTORY_MESSAGES,
          )
        : [],
      retrieve(caller, agent, request.query),
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
        // Without a stream the client saw nothing: a failure stores nothing, as before any token.
        if (turn.error && !options.onText) throw new AppError("INTERNAL", turn.error.message);
        const response = await store({
          caller,
          agent,
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

  async function store(input: {
    caller: QueryCaller;
    agent: AgentRow;
    request: QueryRequest;
    target: TurnTarget;
    passages: KnowledgeHit[];
    attachments: AttachmentText[];
    resolved: ReturnType<ModelRegistry["resolveLanguageModel"]>;
    turn: ModelTurnResult;
    startedAt: Date;
    humanRequested: boolean;
  }): Promise<QueryResponse> {
    const { caller, agent, request, turn, resolved } = input;
    const requestHuman = input.humanRequested || turn.requestedHuman;
    const answer =
      turn.text === "" && turn.requestedHuman && turn.outcome === "complete"
        ? HANDOVER_TEXT
        : turn.text;
    const usage = {
      promptTokens: turn.inputTokens,
      completionTokens: turn.outputTokens,
      totalTokens: turn.inputTokens + turn.outputTokens,
      cost: roundCredits(
        (turn.inputTokens * resolved.prices.input + turn.outputTokens * resolved.prices.output) /
          1e6,
      ),
    };
    const sources: MessageSource[] = input.passages.map((hit) => ({
      source: hit.source,
      chunk: hit.text,
      datasourceId: hit.datasourceId,
      datasourceName: hit.datasourceName,
      chunkId: hit.chunkId,
      score: hit.score,
    }));
    const messageId = newId();
    const answeredAt = new Date(Math.max(Date.now(), input.startedAt.getTime() + 1));
    const conversation = await deps.turns.recordTurn({
      organizationId: caller.organizationId,
      agentId: agent.id,
      target: input.target,
      status: requestHuman ? "human_requested" : "reopen",
      contact: request.contact,
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
          metadata: {
            model: {
              modelName: resolved.modelName,
              requestedModelName: resolved.requestedModelName,
              provider: resolved.provider,
              providerModelId: resolved.providerModelId,
            },
            ...(turn.requestedHuman ? { requestedHuman: true } : {}),
            ...(turn.usageEstimated ? { usageEstimated: true } : {}),
            ...(turn.outcome !== "complete" ? { interrupted: turn.outcome } : {}),
            ...(input.attachments.some((file) => file.truncated)
              ? { attachmentsTruncated: true }
              : {}),
          },
          createdAt: answeredAt,
        },
      ],
    });
    const charge = await deps.billing.charge({
      organizationId: caller.organizationId,
      agentId: agent.id,
      feature: "chat",
      provider: resolved.provider,
      modelName: resolved.providerModelId,
      inputTokens: usage.promptTokens,
      outputTokens: usage.completionTokens,
      conversationId: conversation.id,
      messageId,
      metadata: {
        modelName: resolved.modelName,
        ...(turn.usageEstimated ? { usageEstimated: true } : {}),
      },
    });
    const cost = roundCredits(charge.creditsCharged);
    if (cost !== usage.cost) {
      usage.cost = cost;
      await deps.conversations.setMessageUsage(caller.organizationId, messageId, usage);
    }
    return {
      answer,
      sources: input.passages.map((hit) => ({ source: hit.source, chunk: hit.text })),
      messageId,
      conversationId: conversation.id,
      visitorId: conversation.visitorId,
      request_human: requestHuman,
      status: conversation.status,
      usage,
      approvals: [],
    };
  }

  return { prepare };
}

export type QueryService = ReturnType<typeof createQueryService>;
