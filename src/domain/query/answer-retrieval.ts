import type { Logger } from "../../lib/logger.ts";
import type { ModelRegistry } from "../../models/model-registry.ts";
import type { SuperRetrievalSettings } from "../agents/retrieval-evaluation-config.ts";
import type { Passage } from "../knowledge/knowledge-search.ts";
import type { AnswerRequest, HistoryMessage, QuerySettings } from "./answer-input.ts";
import type { MeteredCall } from "./model-calls.ts";
import { selectPassages } from "./query-knowledge.ts";
import { type SuperRetrievalResult, superRetrieve } from "./super-retrieval.ts";

/** What super retrieval did for an answer, stored with it (docs/agents.md). */
export type SuperRetrievalTrace = SuperRetrievalResult["trace"] & {
  /** No language model for its helpers: plain retrieval ran instead. */
  degraded?: true;
};

/**
 * The passages of an answer: the agent's datastores searched for the question, or super
 * retrieval when the agent has it on and its helper models can run (else plain retrieval, said
 * once in the logs).
 */
export function createAnswerRetrieval(deps: {
  models: Pick<ModelRegistry, "resolveLanguageModel">;
  settings: QuerySettings;
  logger?: Pick<Logger, "warn">;
}) {
  const { settings } = deps;
  let degradedLogged = false;

  /** Super retrieval, or null when it cannot run (then plain retrieval answers). */
  async function superPassages(
    request: AnswerRequest,
    superSettings: SuperRetrievalSettings,
    history: readonly HistoryMessage[],
  ): Promise<{ passages: Passage[]; calls: MeteredCall[]; trace: SuperRetrievalTrace } | null> {
    const { knowledge } = request;
    if (!knowledge?.searchQuery) return null;
    const retrievalModel = deps.models.resolveLanguageModel(superSettings.retrievalModelName);
    const evaluatorModel = deps.models.resolveLanguageModel(superSettings.evaluatorModelName);
    if (retrievalModel.offline || evaluatorModel.offline) {
      if (!degradedLogged) {
        degradedLogged = true;
        deps.logger?.warn(
          { retrievalModel: retrievalModel.modelName, evaluatorModel: evaluatorModel.modelName },
          "super retrieval needs a language model and its provider has no key: agents with useSuperRetrieval use plain retrieval",
        );
      }
      return null;
    }
    const searchQuery = knowledge.searchQuery.bind(knowledge);
    const found = await superRetrieve({
      question: request.query,
      history,
      search: (query, topK) => searchQuery(query, { topK }),
      topK: settings.knowledgeTopK,
      settings: superSettings,
      retrievalModel,
      evaluatorModel,
      timeoutMs: settings.modelTimeoutMs,
      maxRetries: settings.modelMaxRetries,
      onFailure: (step, error) =>
        deps.logger?.warn({ step, err: error.message }, "a super retrieval model call failed"),
    });
    return {
      passages: selectPassages(found.passages, {
        minRelevance: 0,
        tokenBudget: settings.knowledgeTokenBudget,
      }),
      calls: found.calls,
      trace: found.trace,
    };
  }

  async function plainPassages(request: AnswerRequest): Promise<Passage[]> {
    if (!request.knowledge) return [];
    const found = await request.knowledge.search({ topK: settings.knowledgeTopK });
    return selectPassages(found, {
      minRelevance: settings.knowledgeMinRelevance,
      tokenBudget: settings.knowledgeTokenBudget,
    });
  }

  async function retrieve(
    request: AnswerRequest,
    superSettings: SuperRetrievalSettings | null,
  ): Promise<[readonly HistoryMessage[], Passage[], MeteredCall[], SuperRetrievalTrace?]> {
    if (!superSettings || !request.knowledge) {
      const [history, passages] = await Promise.all([request.history, plainPassages(request)]);
      return [history, passages, []];
    }
    // The query model reads the conversation, so retrieval waits for the history.
    const history = await request.history;
    const found = await superPassages(request, superSettings, history);
    if (found) return [history, found.passages, found.calls, found.trace];
    const trace = { rounds: 0, queries: [], evaluated: 0, kept: 0, degraded: true as const };
    return [history, await plainPassages(request), [], trace];
  }

  return { retrieve };
}
