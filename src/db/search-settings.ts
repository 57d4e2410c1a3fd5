/**
 * Settings of pgvector's HNSW walks, given to every database session when it starts (in the
 * startup packet of each pooled connection, as PGlite's one session begins) instead of in a
 * transaction around each search, which cost three statements per query. On a server without
 * pgvector they are inert placeholders.
 *
 * Filters (datastore, datasource, custom id) are applied while the graph is walked; iterative
 * scans keep walking until enough rows pass them, so a search's LIMIT holds even above
 * ef_search. 200 is what recall@10 >= 0.95 against exact search took at 100k chunks of the
 * default embedder (100 gave 0.90, 400 gave 0.99; docs/knowledge-bench.md).
 */
const SEARCH_SETTINGS = {
  "hnsw.ef_search": "200",
  "hnsw.iterative_scan": "relaxed_order",
};

/** The settings as SET statements, for a session that is already open. */
export const SEARCH_SETTINGS_SQL = Object.entries(SEARCH_SETTINGS)
  .map(([name, value]) => `set ${name} = ${value}`)
  .join("; ");

/**
 * The connection string with the settings added to its `options` parameter (PostgreSQL's
 * `-c name=value` startup options), before any the operator gave there: the last setting of a
 * name wins, so `?options=-c%20hnsw.ef_search%3D400` in DATABASE_URL tunes the walk.
 */
export function withSearchSettings(connectionString: string): string {
  const url = new URL(connectionString);
  const given = url.searchParams.get("options");
  const ours = Object.entries(SEARCH_SETTINGS).map(([name, value]) => `-c ${name}=${value}`);
  url.searchParams.set("options", [...ours, given].filter(Boolean).join(" "));
  return url.toString();
}
