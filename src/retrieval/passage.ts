/**
 * A retrieved passage: one chunk of a datastore with the score it earned for a question. Search
 * returns passages best first; the query paths select some for the prompt; an answer's `sources`
 * are projections of the passages it used (toSource, toStoredSource in query-knowledge.ts).
 */
export type Passage = {
  chunkId: string;
  text: string;
  /**
   * Normalised reciprocal-rank fusion score in 0..1 (see FUSION in hybrid-search.ts): higher is
   * better, compared only within one query.
   */
  score: number;
  datasourceId: string;
  datasourceName: string;
  datastoreId: string;
  customId: string | null;
  page: number | null;
  section: string | null;
  /** The page URL for web content, else the datasource name (the file name of an upload). */
  source: string;
};
