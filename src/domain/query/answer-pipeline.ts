import type { AgentsConfig } from "../../config/agents-config.ts";
import type { AgentModelName } from "../../models/model-catalog.ts";
import type { ModelRegistry, ResolvedLanguageModel } from "../../models/model-registry.ts";
import { estimateTokens } from "../../models/token-estimate.ts";
import type { Passage } from "../../retrieval/passage.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import { datastoreIdsOf } from "../agents/agent-tools.ts";
import { RESERVATION_MARGIN_MS, type ReservationRequest } from "../billing/billing-port.ts";
import type { AttachmentReader, AttachmentText } from "./attachment-reader.ts";
import { type ModelTurnResult, runModelTurn } from "./model-turn.ts";
import { type OpenedKnowledge, selectPassages } from "./query-knowledge.ts";
import { buildQueryPrompt, type PromptType } from "./query-prompt.ts";
import { type PromptBudgets, promptCharsBound, turnReservation } from "./usage-bound.ts";

/** The spec's context window: the last 24 messages of the conversation. */
export const HISTORY_MESSAGES = 24;

/** Said when the model handed over with a tool call and wrote nothing after it. */
export const HANDOVER_TEXT = "A member of our team will take over this conversation shortly.";

// The AI SDK's default: two retries of a failed first request (2 s, then 4 s), none mid-stream.
const MODEL_MAX_RETRIES = 2;

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

export type AnswerPipelineDeps = {
  models: Pick<ModelRegistry, "resolveLanguageModel">;
  attachments: Pick<AttachmentReader, "read">;
  settings: QuerySettings;
};

/** What a request (or a batching window) may change of the agent's prompt for one answer. */
export type PromptOverrides = {
  /** Replaces the agent's system prompt; "" means no override. */
  systemPrompt?: string;
  promptType?: PromptType;
};

export type HistoryMessage = { from: "human" | "agent"; text: string };

/** What a request may change of how the model writes one answer (the OpenAI-compatible API). */
export type Sampling = {
  /** Replaces the agent's temperature. */
  temperature?: number;
  /** Lowers the configured most tokens per step; a larger value changes nothing. */
  maxOutputTokens?: number;
};

export type AnswerRequest = {
  agent: AgentRow;
  overrides: PromptOverrides;
  /** The customer's turn: one query, or the messages of a window combined. */
  query: string;
  context?: string;
  /** The customer asked for a person in this turn. */
  humanRequested: boolean;
  /** The agent's datastores, ready to search; null when it has none (or none can be searched). */
  knowledge: OpenedKnowledge | null;
  /** Oldest first; read alongside retrieval and attachments when given as a promise. */
  history: Promise<readonly HistoryMessage[]> | readonly HistoryMessage[];
  attachmentUrls: string[];
  sampling?: Sampling;
};

export type RunOptions = {
  /** Receives the answer as it is written (streaming). */
  onText?: (fragment: string) => Promise<void> | void;
  /** Aborted when the client disconnects: the model stops, the partial answer is stored. */
  signal?: AbortSignal;
};

/** An answer ready to be written: the prompt is built and its model chosen. */
export type PreparedAnswer = {
  passages: Passage[];
  attachments: AttachmentText[];
  resolved: ResolvedLanguageModel;
  /** Calls the model once with the prompt. */
  run(options?: RunOptions): Promise<ModelTurnResult>;
};

/**
 * The one way an agent answers, for both the direct query and conversational mode: retrieve,
 * select passages, build the prompt, estimate its tokens, resolve the model (the estimate picks
 * the route), run. Each mode keeps its own reservation, recording and delivery around it.
 */
export function createAnswerPipeline(deps: AnswerPipelineDeps) {
  const { settings } = deps;
  const outputTokensOf = (sampling: Sampling | undefined) =>
    Math.min(sampling?.maxOutputTokens ?? settings.maxOutputTokens, settings.maxOutputTokens);
  return {
    settings,

    /**
     * What billing reserves before answering as `agent`: the prompt bounded by the texts known
     * now (besides the system and user prompts) with every budget filled, and all output allowed.
     */
    reservation(request: {
      organizationId: string;
      agent: AgentRow;
      overrides: PromptOverrides;
      knownTexts: ReadonlyArray<string | undefined>;
      hasAttachments: boolean;
      sampling?: Sampling;
    }): ReservationRequest {
      const { agent } = request;
      return turnReservation(deps.models, {
        organizationId: request.organizationId,
        feature: "chat",
        modelName: agent.modelName as AgentModelName,
        promptChars: promptCharsBound(
          [
            request.overrides.systemPrompt || agent.systemPrompt,
            agent.userPrompt,
            ...request.knownTexts,
          ],
          settings,
          {
            knowledge: datastoreIdsOf(agent.tools).length > 0,
            attachments: request.hasAttachments,
          },
        ),
        maxOutputTokens: outputTokensOf(request.sampling),
        holdMs: settings.reservationHoldMs,
      });
    },

    async prepare(request: AnswerRequest): Promise<PreparedAnswer> {
      const { agent, overrides } = request;
      const [history, passages, attachments] = await Promise.all([
        request.history,
        request.knowledge
          ? request.knowledge.search({ topK: settings.knowledgeTopK }).then((found) =>
              selectPassages(found, {
                minRelevance: settings.knowledgeMinRelevance,
                tokenBudget: settings.knowledgeTokenBudget,
              }),
            )
          : [],
        deps.attachments.read(request.attachmentUrls),
      ]);
      const prompt = buildQueryPrompt({
        agentName: agent.name,
        promptType: overrides.promptType ?? agent.promptType,
        systemPrompt: overrides.systemPrompt ? overrides.systemPrompt : agent.systemPrompt,
        userPrompt: agent.userPrompt,
        context: request.context,
        usesKnowledge: datastoreIdsOf(agent.tools).length > 0,
        passages,
        history,
        historyTokenBudget: settings.historyTokenBudget,
        query: request.query,
        attachments,
        humanRequested: request.humanRequested,
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
        passages,
        attachments,
        resolved,
        run: (options = {}) =>
          runModelTurn({
            resolved,
            system: prompt.system,
            messages: prompt.messages,
            temperature: request.sampling?.temperature ?? agent.temperature,
            timeoutMs: settings.modelTimeoutMs,
            maxRetries: settings.modelMaxRetries,
            maxOutputTokens: outputTokensOf(request.sampling),
            signal: options.signal,
            onText: options.onText,
          }),
      };
    },
  };
}

export type AnswerPipeline = ReturnType<typeof createAnswerPipeline>;
