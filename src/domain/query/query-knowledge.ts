import type { StatementPart } from "../../db/statement-parts.ts";
import { estimateTokens } from "../../models/token-estimate.ts";

/** A retrieved passage, as the knowledge module's search returns it. */
export type KnowledgeHit = {
  text: string;
  /** Higher is better; only compared within one query. */
  score: number;
  source: string;
  datasourceId: string;
  datasourceName: string;
  chunkId: string;
  page?: number | null;
};

/** The request of a knowledge search, as the query paths make it. */
type KnowledgeRequest = { organizationId: string; datastoreIds: string[]; query: string };

/** The agent's datastores, read and ready to search. */
export type OpenedKnowledge = { search(options: { topK: number }): Promise<KnowledgeHit[]> };

/**
 * The knowledge search the query paths need (implemented by the knowledge module). `open` reads
 * the agent's datastores with another part of the caller's in one statement, ready to search.
 */
export type KnowledgeLookup = {
  search(request: KnowledgeRequest & { topK: number }): Promise<KnowledgeHit[]>;
  open<Along>(
    request: KnowledgeRequest,
    along: StatementPart<Along>,
  ): Promise<OpenedKnowledge & { along: Along }>;
};

export type PassageSelection = {
  /** Passages scoring below this fraction of the best one are dropped. */
  minRelevance: number;
  /** Estimated tokens of passage text at most. */
  tokenBudget: number;
};

/**
 * The hits worth putting in the prompt: best first, close enough to the best one, within the
 * token budget. A passage that does not fit is skipped so a shorter one after it may still fit.
 */
export function selectPassages(hits: readonly KnowledgeHit[], selection: PassageSelection) {
  const ranked = [...hits].sort((left, right) => right.score - left.score);
  const best = ranked[0]?.score ?? 0;
  const floor = best * selection.minRelevance;
  const chosen: KnowledgeHit[] = [];
  let used = 0;
  for (const hit of ranked) {
    if (hit.score < floor || hit.text.trim() === "") continue;
    const cost = estimateTokens(hit.text);
    if (used + cost > selection.tokenBudget) continue;
    used += cost;
    chosen.push(hit);
  }
  return chosen;
}
