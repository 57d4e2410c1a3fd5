import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import type { ChunkWriter } from "./chunk-writer.ts";

const ANALYZE_INTERVAL_MS = 60_000;

/**
 * PGlite has no autovacuum, so without help the chunk table's planner statistics stay as the
 * first ANALYZE left them, or absent: the planner then never learns that the GIN index pays, and
 * the full-text side never learns which lexemes are common (text-query.ts). This wraps the chunk
 * writer so that a sync that stored chunks is followed by an ANALYZE in the background, at most
 * once a minute: what autovacuum does on a PostgreSQL server.
 */
export function analyzeAfterWrites(
  writeChunks: ChunkWriter,
  deps: { db: Db; logger: Logger; now?: () => number },
): ChunkWriter {
  const now = deps.now ?? Date.now;
  let lastStarted = Number.NEGATIVE_INFINITY;
  return async (input) => {
    const outcome = await writeChunks(input);
    if (outcome === "synched" && now() - lastStarted >= ANALYZE_INTERVAL_MS) {
      lastStarted = now();
      deps.db.execute(sql`analyze knowledge_chunks`).catch((error: unknown) => {
        deps.logger.warn({ err: error }, "Could not refresh the knowledge chunks' statistics");
      });
    }
    return outcome;
  };
}
