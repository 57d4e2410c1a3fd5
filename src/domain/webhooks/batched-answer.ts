import type { WindowOptions } from "../../db/schema/index.ts";
import type { AgentModelName } from "../../models/model-catalog.ts";
import type { ModelRegistry, ResolvedLanguageModel } from "../../models/model-registry.ts";
import { estimateTokens } from "../../models/token-estimate.ts";
import type { Passage } from "../../retrieval/passage.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import { datastoreIdsOf } from "../agents/agent-tools.ts";
import type { AttachmentReader } from "../query/attachment-reader.ts";
import { asksForHuman } from "../query/human-request.ts";
import { type ModelTurnResult, runModelTurn } from "../query/model-turn.ts";
import { type KnowledgeLookup, selectPassages } from "../query/query-knowledge.ts";
import { buildQueryPrompt } from "../query/query-prompt.ts";
import type { QuerySettings } from "../query/query-service.ts";
import type { WindowMessage } from "./window-message-repo.ts";

export type BatchedAnswerDeps = {
  models: Pick<ModelRegistry, "resolveLanguageModel">;
  /** Null until a knowledge module is wired: agents then answer without retrieval. */
  knowledge: KnowledgeLookup | null;
  attachments: Pick<AttachmentReader, "read">;
  settings: QuerySettings;
};

export type BatchedAnswer = {
  turn: ModelTurnResult;
  resolved: ResolvedLanguageModel;
  passages: Passage[];
  /** The customer asked for a person in one of the messages, or the model handed over. */
  requestedHuman: boolean;
  attachmentsTruncated: boolean;
};

/** The waiting messages as one user turn: each as written, in order, a blank line apart. */
export function combinedQuery(waiting: readonly WindowMessage[]): string {
  return waiting.map((message) => message.text.trim()).join("\n\n");
}

/** The extra context the waiting messages carried, each once. */
function contextOf(waiting: readonly WindowMessage[]): string | undefined {
  const contexts = waiting
    .map((message) => message.metadata.context)
    .filter((context): context is string => typeof context === "string" && context.trim() !== "");
  return contexts.length > 0 ? [...new Set(contexts)].join("\n\n") : undefined;
}

/**
 * One model call for every message of a closed window, built from the query path's own parts
 * (retrieval and passage selection, prompt, history budget, human handover, model turn), so a
 * conversational answer knows what a direct query would know.
 */
export async function generateBatchedAnswer(
  deps: BatchedAnswerDeps,
  input: {
    organizationId: string;
    agent: AgentRow;
    waiting: readonly WindowMessage[];
    history: ReadonlyArray<{ from: "human" | "agent"; text: string }>;
    options: WindowOptions;
  },
): Promise<BatchedAnswer> {
  const { agent, waiting, options } = input;
  const { settings } = deps;
  const query = combinedQuery(waiting);
  const datastoreIds = datastoreIdsOf(agent.tools);
  const [hits, attachments] = await Promise.all([
    deps.knowledge && datastoreIds.length > 0
      ? deps.knowledge.search({
          organizationId: input.organizationId,
          datastoreIds,
          query,
          topK: settings.knowledgeTopK,
        })
      : [],
    deps.attachments.read(waiting.flatMap((message) => message.attachments.map(({ url }) => url))),
  ]);
  const passages = selectPassages(hits, {
    minRelevance: settings.knowledgeMinRelevance,
    tokenBudget: settings.knowledgeTokenBudget,
  });
  const humanRequested = waiting.some((message) => asksForHuman(message.text));
  const prompt = buildQueryPrompt({
    agentName: agent.name,
    promptType: options.promptType ?? agent.promptType,
    systemPrompt: options.systemPrompt ? options.systemPrompt : agent.systemPrompt,
    userPrompt: agent.userPrompt,
    context: contextOf(waiting),
    usesKnowledge: datastoreIds.length > 0,
    passages,
    history: input.history,
    historyTokenBudget: settings.historyTokenBudget,
    query,
    attachments,
    humanRequested,
  });
  const promptTokens =
    estimateTokens(prompt.system) +
    prompt.messages.reduce((sum, message) => sum + estimateTokens(String(message.content)) + 4, 4);
  const resolved = deps.models.resolveLanguageModel(agent.modelName as AgentModelName, {
    promptTokens,
  });
  const turn = await runModelTurn({
    resolved,
    system: prompt.system,
    messages: prompt.messages,
    temperature: agent.temperature,
    timeoutMs: settings.modelTimeoutMs,
    maxRetries: settings.modelMaxRetries,
    maxOutputTokens: settings.maxOutputTokens,
  });
  return {
    turn,
    resolved,
    passages,
    requestedHuman: humanRequested || turn.requestedHuman,
    attachmentsTruncated: attachments.some((file) => file.truncated),
  };
}
