import type { RetrievalQuestion } from "./retrieval-corpus.ts";

// Metrics are computed over what a datastore query returns: a ranked list of chunks, reduced here
// to the document id of each chunk (several chunks of one document may appear).

/** Share of the question's relevant documents that own at least one of the first k chunks. */
function recallAtK(
  rankedDocumentIds: readonly string[],
  relevant: readonly string[],
  k: number,
): number {
  const top = new Set(rankedDocumentIds.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

/** 1 / rank of the first chunk from a relevant document within the first k, else 0. */
function reciprocalRank(
  rankedDocumentIds: readonly string[],
  relevant: readonly string[],
  k = 10,
): number {
  const position = rankedDocumentIds.slice(0, k).findIndex((id) => relevant.includes(id));
  return position < 0 ? 0 : 1 / (position + 1);
}

export type RetrievalScores = {
  recallAt5: number;
  /** Mean reciprocal rank, cut off at rank 10. */
  mrr: number;
  /** Ids of the questions with no relevant document in the first 5 chunks. */
  misses: string[];
};

/** Runs every question through a retriever that returns document ids of ranked chunks. */
export async function evaluateRetriever(
  questions: RetrievalQuestion[],
  retrieve: (question: string) => Promise<readonly string[]> | readonly string[],
): Promise<RetrievalScores> {
  let recall = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const question of questions) {
    const ranked = await retrieve(question.question);
    const questionRecall = recallAtK(ranked, question.relevant, 5);
    if (questionRecall === 0) misses.push(question.id);
    recall += questionRecall;
    reciprocal += reciprocalRank(ranked, question.relevant, 10);
  }
  return { recallAt5: recall / questions.length, mrr: reciprocal / questions.length, misses };
}

/** Indices of the k vectors with the highest dot product (cosine for unit vectors), best first. */
export function topKByDotProduct(
  query: readonly number[],
  vectors: number[][],
  k: number,
): number[] {
  const scored = vectors.map((vector, index) => {
    let score = 0;
    for (let dimension = 0; dimension < query.length; dimension += 1) {
      score += query[dimension]! * vector[dimension]!;
    }
    return { index, score };
  });
  // Ties keep index order so rankings are deterministic.
  scored.sort((left, right) => right.score - left.score || left.index - right.index);
  return scored.slice(0, k).map((entry) => entry.index);
}
