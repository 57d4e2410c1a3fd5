import type { StoredSource } from "../../db/schema/index.ts";
import type { StatementPart } from "../../db/statement-parts.ts";
import { estimateTokens } from "../../models/token-estimate.ts";
import type { Passage } from "../knowledge/knowledge-search.ts";

/** The request of a knowledge search, as the query paths make it. */
type KnowledgeRequest = { organizationId: string; datastoreIds: string[]; query: string };

/** The agent's datastores, read and ready to search. */
export type OpenedKnowledge = {
  /** Searches for the customer's question. */
  search(options: { topK: number }): Promise<Passage[]>;
  /** Searches for another query (super retrieval's); without it super retrieval cannot run. */
  searchQuery?(query: string, options: { topK: number }): Promise<Passage[]>;
};

/**
 * The knowledge search the query paths need (implemented by the knowledge module). `open` reads
 * the agent's datastores with another part of the caller's in one statement, ready to search.
 */
export type KnowledgeLookup = {
  search(request: KnowledgeRequest & { topK: number }): Promise<Passage[]>;
  open<Along>(
    request: KnowledgeRequest,
    along: StatementPart<Along>,
  ): Promise<OpenedKnowledge & { along: Along }>;
};

/**
 * The agent's datastores searched through `knowledge` for `query` (and super retrieval's other
 * queries); null when there is nothing to search.
 */
export function searchableKnowledge(
  knowledge: KnowledgeLookup | null,
  request: KnowledgeRequest,
): OpenedKnowledge | null {
  if (!knowledge || request.datastoreIds.length === 0) return null;
  return {
    search: ({ topK }) => knowledge.search({ ...request, topK }),
    searchQuery: (alternative, { topK }) =>
      knowledge.search({ ...request, query: alternative, topK }),
  };
}

export type PassageSelection = {
  /** Passages scoring below this fraction of the best one are dropped. */
  minRelevance: number;
  /** Estimated tokens of passage text at most. */
  tokenBudget: number;
};

/**
 * The passages worth putting in the prompt: best first, close enough to the best one, within the
 * token budget. A passage that does not fit is skipped so a shorter one after it may still fit.
 */
export function selectPassages(passages: readonly Passage[], selection: PassageSelection) {
  const ranked = [...passages].sort((left, right) => right.score - left.score);
  const best = ranked[0]?.score ?? 0;
  const floor = best * selection.minRelevance;
  const chosen: Passage[] = [];
  let used = 0;
  for (const passage of ranked) {
    if (passage.score < floor || passage.text.trim() === "") continue;
    const cost = estimateTokens(passage.text);
    if (used + cost > selection.tokenBudget) continue;
    used += cost;
    chosen.push(passage);
  }
  return chosen;
}

/** A passage as a response's `sources` lists it (the spec's fields). */
export type Source = { source: string; chunk: string };

export function toSource(passage: Passage): Source {
  return { source: passage.source, chunk: passage.text };
}

/** A passage as the agent message that used it stores it (and GET conversations returns it). */
export function toStoredSource(passage: Passage): StoredSource {
  return {
    source: passage.source,
    chunk: passage.text,
    datasourceId: passage.datasourceId,
    datasourceName: passage.datasourceName,
    chunkId: passage.chunkId,
    score: passage.score,
  };
}
