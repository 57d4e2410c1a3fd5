/**
 * Settings of pgvector's HNSW walks, set once for every database session (each pooled
 * connection, PGlite's one session) instead of in a transaction around each search, which cost
 * three statements per query. On a server without pgvector they are inert placeholders.
 *
 * Filters (datastore, datasource, custom id) are applied while the graph is walked; iterative
 * scans keep walking until enough rows pass them, so a search's LIMIT holds even above
 * ef_search. 200 is what recall@10 >= 0.95 against exact search took at 100k chunks of the
 * default embedder (100 gave 0.90, 400 gave 0.99; docs/knowledge-bench.md).
 */
export const SEARCH_SESSION_SETTINGS =
  "set hnsw.ef_search = 200; set hnsw.iterative_scan = relaxed_order";
