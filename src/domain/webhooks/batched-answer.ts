import type { WindowOptions } from "../../db/schema/index.ts";
import type { ResolvedLanguageModel } from "../../models/model-registry.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import { datastoreIdsOf } from "../agents/agent-tools.ts";
import type { Passage } from "../knowledge/knowledge-search.ts";
import type { HistoryMessage } from "../query/answer-input.ts";
import type { AnswerPipeline, AnswerTurn } from "../query/answer-pipeline.ts";
import { asksForHuman } from "../query/human-request.ts";
import type { MeteredCall } from "../query/model-calls.ts";
import { type KnowledgeLookup, searchableKnowledge } from "../query/query-knowledge.ts";
import type { WindowMessage } from "./window-message-repo.ts";

export type BatchedAnswerDeps = {
  answers: AnswerPipeline;
  /** Null until a knowledge module is wired: agents then answer without retrieval. */
  knowledge: KnowledgeLookup | null;
};

export type BatchedAnswer = {
  turn: AnswerTurn;
  /** The version of the agent the answer was made with. */
  agentVersion: number;
  resolved: ResolvedLanguageModel;
  /** The passages the answer used (see AnswerTurn.sources). */
  sources: Passage[];
  /** Super retrieval's and comparison models' calls, charged after the answer. */
  calls: MeteredCall[];
  /** The customer asked for a person in one of the messages, or the model handed over. */
  requestedHuman: boolean;
  attachmentsTruncated: boolean;
};

/** The waiting messages as one user turn: each as written, in order, a blank line apart. */
function combinedQuery(waiting: readonly WindowMessage[]): string {
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
 * One model call for every message of a closed window, through the query path's pipeline
 * (retrieval and passage selection, prompt, history budget, human handover, model turn), so a
 * conversational answer knows what a direct query would know.
 */
export async function generateBatchedAnswer(
  deps: BatchedAnswerDeps,
  input: {
    organizationId: string;
    agent: AgentRow;
    waiting: readonly WindowMessage[];
    history: readonly HistoryMessage[];
    options: WindowOptions;
    /** A messaging channel's customer reads the answer, not the organization's integration. */
    publicAudience?: boolean;
  },
): Promise<BatchedAnswer> {
  const { agent, waiting } = input;
  const query = combinedQuery(waiting);
  const humanRequested = waiting.some((message) => asksForHuman(message.text));
  const answer = await deps.answers.prepare({
    agent,
    overrides: input.options,
    query,
    context: contextOf(waiting),
    humanRequested,
    knowledge: searchableKnowledge(deps.knowledge, {
      organizationId: input.organizationId,
      datastoreIds: datastoreIdsOf(agent.tools),
      query,
    }),
    history: input.history,
    attachmentUrls: waiting.flatMap((message) => message.attachments.map(({ url }) => url)),
    publicAudience: input.publicAudience,
  });
  const turn = await answer.run();
  return {
    turn,
    agentVersion: agent.version,
    resolved: turn.resolved,
    calls: turn.calls,
    sources: turn.sources,
    requestedHuman: humanRequested || turn.requestedHuman,
    attachmentsTruncated: answer.attachments.some((file) => file.truncated),
  };
}
