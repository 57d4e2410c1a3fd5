import type { AgentsConfig } from "../../config/agents-config.ts";
import type { Logger } from "../../lib/logger.ts";
import type { AgentModelName } from "../../models/model-catalog.ts";
import type { ModelRegistry, ResolvedLanguageModel } from "../../models/model-registry.ts";
import { estimateTokens } from "../../models/token-estimate.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import { datastoreIdsOf } from "../agents/agent-tools.ts";
import {
  type SuperRetrievalSettings,
  superRetrievalSettingsOf,
} from "../agents/retrieval-evaluation-config.ts";
import { RESERVATION_MARGIN_MS, type ReservationRequest } from "../billing/billing-port.ts";
import type { Passage } from "../knowledge/knowledge-search.ts";
import { type ComparisonAnswer, type FailedModel, generateAnswer } from "./answer-generation.ts";
import type { AnswerRequest, PromptOverrides, QuerySettings, Sampling } from "./answer-input.ts";
import { createAnswerRetrieval, type SuperRetrievalTrace } from "./answer-retrieval.ts";
import type { AttachmentReader, AttachmentText } from "./attachment-reader.ts";
import type { MeteredCall } from "./model-calls.ts";
import type { ModelTurnResult } from "./model-turn.ts";
import { buildQueryPrompt } from "./query-prompt.ts";
import { promptCharsBound, turnReservation } from "./usage-bound.ts";

/** The spec's context window: the last 24 messages of the conversation. */
export const HISTORY_MESSAGES = 24;

/** Said when the model handed over with a tool call and wrote nothing after it. */
export const HANDOVER_TEXT = "A member of our team will take over this conversation shortly.";

// The AI SDK's default: two retries of a failed first request (2 s, then 4 s), none mid-stream.
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

export type AnswerPipelineDeps = {
  models: Pick<ModelRegistry, "resolveLanguageModel">;
  attachments: Pick<AttachmentReader, "read">;
  settings: QuerySettings;
  /** Where super retrieval says, once, that it runs as plain retrieval for want of a model. */
  logger?: Pick<Logger, "warn">;
};

export type RunOptions = {
  /** Receives the answer as it is written (streaming). */
  onText?: (fragment: string) => Promise<void> | void;
  /** Aborted when the client disconnects: the model stops, the partial answer is stored. */
  signal?: AbortSignal;
};

/** A model turn with who answered it and what else was called for it. */
export type AnswerTurn = ModelTurnResult & {
  /** The model that answered: the first one, or the fallback that took over. */
  resolved: ResolvedLanguageModel;
  /**
   * The passages the answer used, its `sources`: those the model was given, or for the offline
   * responder the ones it quoted.
   */
  sources: Passage[];
  /** True for an agent with useSuperRetrieval: its answers carry the extension fields. */
  extended: boolean;
  /** Models of `fallbackModels` (or the first one) that failed before the answering one. */
  failedModels: FailedModel[];
  comparisons: ComparisonAnswer[];
  /** Query generation, evaluation and comparison calls: each metered and charged on its own. */
  calls: MeteredCall[];
  superRetrieval?: SuperRetrievalTrace;
};

/** An answer ready to be written: the prompt is built and its model chosen. */
export type PreparedAnswer = {
  passages: Passage[];
  attachments: AttachmentText[];
  /** The first model to ask; a fallback may answer instead (see AnswerTurn.resolved). */
  resolved: ResolvedLanguageModel;
  /** Super retrieval's calls made while preparing: owed even when the answer then fails. */
  retrievalCalls: MeteredCall[];
  /** Calls the model with the prompt (then its fallbacks, as needed). */
  run(options?: RunOptions): Promise<AnswerTurn>;
};

/** The passages an offline answer quoted, in the order quoted; for any other model all of them. */
function sourcesOf(passages: readonly Passage[], quoted: ModelTurnResult["quoted"]): Passage[] {
  if (!quoted) return [...passages];
  const used: Passage[] = [];
  for (const entry of quoted) {
    // Text quoted from a request's context is no passage of the knowledge, hence no source.
    const passage = passages.find(
      (candidate) =>
        !used.includes(candidate) &&
        candidate.source === entry.source &&
        candidate.text === entry.text,
    );
    if (passage) used.push(passage);
  }
  return used;
}

const uniqueNames = (names: readonly AgentModelName[]) => [...new Set(names)];

/** Every model a super retrieval agent may call, besides its answering model. */
function otherModelsOf(settings: SuperRetrievalSettings): AgentModelName[] {
  return uniqueNames([
    settings.retrievalModelName,
    settings.evaluatorModelName,
    ...settings.fallbackModels,
    ...settings.comparisonModels,
  ]);
}

/**
 * The one way an agent answers, for both the direct query and conversational mode: retrieve,
 * select passages, build the prompt, estimate its tokens, resolve the model (the estimate picks
 * the route), run. Each mode keeps its own reservation, recording and delivery around it.
 */
export function createAnswerPipeline(deps: AnswerPipelineDeps) {
  const { settings } = deps;
  const outputTokensOf = (sampling: Sampling | undefined) =>
    Math.min(sampling?.maxOutputTokens ?? settings.maxOutputTokens, settings.maxOutputTokens);
  const retrieval = createAnswerRetrieval(deps);

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
      /** The consumption feature the answer is charged as (default "chat"). */
      feature?: string;
    }): ReservationRequest {
      const { agent } = request;
      const superSettings = agent.useSuperRetrieval ? superRetrievalSettingsOf(agent) : null;
      // Super retrieval: two helper calls a round, the answer and its fallbacks, the comparisons.
      const calls = superSettings
        ? 2 * superSettings.retrievalRounds +
          1 +
          superSettings.fallbackModels.length +
          superSettings.comparisonModels.length
        : 1;
      const sequentialCalls = superSettings
        ? 2 * superSettings.retrievalRounds + 1 + superSettings.fallbackModels.length
        : 1;
      const maxOutputTokens = Math.max(
        settings.maxOutputTokens,
        ...Object.values(superSettings?.modelMaxTokens ?? {}),
      );
      return turnReservation(deps.models, {
        organizationId: request.organizationId,
        feature: request.feature ?? "chat",
        modelName: (superSettings?.generationModelName ?? agent.modelName) as AgentModelName,
        ...(superSettings ? { otherModelNames: otherModelsOf(superSettings), calls } : {}),
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
        maxOutputTokens: Math.min(
          request.sampling?.maxOutputTokens ?? maxOutputTokens,
          maxOutputTokens,
        ),
        holdMs: settings.reservationHoldMs + (sequentialCalls - 1) * settings.modelTimeoutMs,
      });
    },

    async prepare(request: AnswerRequest): Promise<PreparedAnswer> {
      const { agent, overrides } = request;
      const superSettings = agent.useSuperRetrieval ? superRetrievalSettingsOf(agent) : null;
      const [[history, passages, retrievalCalls, trace], attachments] = await Promise.all([
        retrieval.retrieve(request, superSettings),
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
      const resolve = (modelName: string) =>
        deps.models.resolveLanguageModel(modelName as AgentModelName, {
          promptTokens,
          publicAudience: request.publicAudience,
        });
      const resolved = resolve(superSettings?.generationModelName ?? agent.modelName);
      // A fallback without a provider key would only hand over to the offline responder.
      const fallbacks = (superSettings?.fallbackModels ?? [])
        .filter((modelName) => modelName !== resolved.requestedModelName)
        .map(resolve)
        .filter((fallback) => resolved.offline || !fallback.offline);
      const comparisons = (superSettings?.comparisonModels ?? []).map(resolve);
      return {
        passages,
        attachments,
        resolved,
        retrievalCalls,
        async run(options = {}) {
          const generated = await generateAnswer({
            system: prompt.system,
            messages: prompt.messages,
            candidates: [resolved, ...fallbacks],
            comparisons,
            settings: superSettings,
            temperature: request.sampling?.temperature ?? agent.temperature,
            timeoutMs: settings.modelTimeoutMs,
            maxRetries: settings.modelMaxRetries,
            maxOutputTokens: outputTokensOf(request.sampling),
            signal: options.signal,
            onText: options.onText,
          });
          return {
            ...generated.turn,
            resolved: generated.resolved,
            sources: sourcesOf(passages, generated.turn.quoted),
            extended: superSettings !== null,
            failedModels: generated.failedModels,
            comparisons: generated.comparisons,
            calls: [...retrievalCalls, ...generated.comparisonCalls],
            ...(trace ? { superRetrieval: trace } : {}),
          };
        },
      };
    },
  };
}

export type AnswerPipeline = ReturnType<typeof createAnswerPipeline>;
