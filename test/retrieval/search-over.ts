import type { Database } from "../../src/db/client.ts";
import { createHybridSearch } from "../../src/retrieval/hybrid-search.ts";

/**
 * The hybrid search over a test database with a given copies budget: `0` leaves every ranking
 * to the database. Vectors are copied at any size unless `exactVectorMaxValues` says otherwise.
 */
export function searchOver(
  database: Database,
  exactCacheBytes: number,
  options: { exactVectorMaxValues?: number; vectorsFirst?: boolean } = {},
) {
  return createHybridSearch({
    db: database.db,
    hasPgvector: database.hasPgvector,
    // The embedded database keeps no HNSW index (knowledge-module.ts).
    hnswIndexes: database.hasPgvector && database.kind === "postgres",
    exactCacheBytes,
    exactVectorMaxValues: options.exactVectorMaxValues ?? Number.POSITIVE_INFINITY,
    vectorsFirst: options.vectorsFirst ?? true,
  });
}
