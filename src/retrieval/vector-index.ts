import { type SQL, sql } from "drizzle-orm";

/**
 * What PostgreSQL with pgvector indexes of each chunk's vector: the unit vector in half precision
 * (`halfvec`), in one partial HNSW index per dimension count. Half the bytes of `vector` keeps
 * twice the graph in `shared_buffers`: at 100,000 chunks of 512 dimensions the index is 130 MB
 * instead of 260, and a walk that read half its 5,300 buffers from the operating system's cache
 * with PostgreSQL's default 128 MB reads fewer than 500 (bench/RESULTS.md, 2026-11-27). The
 * vectors are normalised first because they are stored as integers (vector-encoding.ts), beyond
 * half precision's range; cosine ranking does not depend on the scale. The walk's candidates are
 * ranked again at full precision, so half precision only decides which chunks are candidates.
 */

/** pgvector's HNSW indexes `halfvec` up to 4,000 dimensions; larger vectors are scored exactly. */
const MAX_INDEXED_DIMENSIONS = 4_000;

/**
 * Candidates kept while the graph is built (pgvector's default is 64). A better connected graph
 * reaches recall@10 0.958 against exact search at ef_search 200, where 64 gave 0.948, for
 * about 1.6 times the insert work.
 */
export const HNSW_EF_CONSTRUCTION = 128;

/**
 * The function the indexes are over, where pgvector is installed in `schema` (migration 0028
 * creates the same). Its declared cost is what the planner does not count: vectors are stored
 * out of line (migration 0011), and the planner prices a sort by the distance of every chunk of a
 * datastore without reading them. With the cost of `l2_normalize` it sorted a datastore of
 * 10,000 chunks alone in its table (90 ms) instead of walking the index (4-6 ms). PL/pgSQL,
 * because a SQL function would be inlined and its cost forgotten; the names are qualified
 * because maintenance commands run index expressions with a search path of their own.
 */
export function unitHalfvecFunction(schema: string): string {
  return `create or replace function knowledge_unit_halfvec(embedding ${schema}.vector)
    returns ${schema}.halfvec language plpgsql immutable strict parallel safe cost 1000
    as 'begin return ${schema}.l2_normalize(embedding)::${schema}.halfvec; end'`;
}

/** The indexed form of a vector of `dimensions` components: the expression the index is over. */
export function indexedVector(vector: SQL, dimensions: number): SQL {
  const size = sql.raw(String(dimensions));
  return sql`knowledge_unit_halfvec(${vector}::vector(${size}))::halfvec(${size})`;
}

export function isIndexable(dimensions: number): boolean {
  return Number.isInteger(dimensions) && dimensions >= 1 && dimensions <= MAX_INDEXED_DIMENSIONS;
}
