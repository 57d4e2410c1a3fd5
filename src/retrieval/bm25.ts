/**
 * BM25 (Robertson and Zaragoza, 2009), the full-text ranking of every path: in the application
 * (text-postings.ts) and in SQL (hybrid-search.ts, textRanksInSql), which compute the same
 * double-precision expression term by term. A chunk's score for an OR of lexemes is
 *   Σ idf(t) · tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl))
 * over the distinct lexemes it contains, where tf is the lexeme's positions in the chunk's
 * tsvector, dl the chunk's positions, and, over the datastores searched (their chunks of the
 * vector size searched),
 *   idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
 * with N their chunks, df(t) those containing t and avgdl their mean length: the figures the
 * database keeps per datastore (knowledge_lexeme_statistics, knowledge_text_totals) and a copy
 * counts from its postings. The idf is Lucene's, never negative, so a lexeme in most chunks
 * still counts a little.
 */

/** Term-frequency saturation: the usual value. */
export const BM25_K1 = 1.2;
/** Length normalisation: the usual value. */
export const BM25_B = 0.75;

/** A query lexeme with its inverse document frequency over the datastores searched. */
export type Bm25Term = { lexeme: string; idf: number };

export function bm25Idf(chunks: number, documentFrequency: number): number {
  return Math.log(1 + (chunks - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** What one lexeme with `frequency` positions adds to a chunk of `length` positions. */
export function bm25TermScore(
  idf: number,
  frequency: number,
  length: number,
  averageLength: number,
): number {
  return (
    (idf * frequency * (BM25_K1 + 1)) /
    (frequency + BM25_K1 * (1 - BM25_B + (BM25_B * length) / averageLength))
  );
}
