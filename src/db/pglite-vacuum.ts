import { sql } from "drizzle-orm";
import type { Logger } from "../lib/logger.ts";
import type { Db } from "./client.ts";

/** How often the embedded database's credit reservations are vacuumed. */
const PGLITE_VACUUM_INTERVAL_MS = 10 * 60_000;

/**
 * PGlite has no autovacuum. Every agent query inserts a credit reservation and deletes it when it
 * settles, and without a vacuum each settled one keeps its line pointer in the table and its
 * index entries for good: about 115 bytes a query, 400 MB a year at ten thousand queries a day
 * (the hot path no longer reads them, see migration 0026). This vacuums that table every
 * PGLITE_VACUUM_INTERVAL_MS, which is what autovacuum does on a server: the table then keeps the
 * size of one interval's reservations. It holds only the reservations in flight, so a run takes
 * milliseconds. Tables that are only updated (credit buckets, daily totals) are kept small by
 * PostgreSQL's page pruning already.
 */
export function startPgliteVacuum(
  db: Db,
  logger: Pick<Logger, "warn">,
  intervalMs = PGLITE_VACUUM_INTERVAL_MS,
) {
  let running: Promise<void> | null = null;

  function vacuum(): Promise<void> {
    running ??= db
      .execute(sql`vacuum credit_reservations`)
      .then(
        () => undefined,
        (error: unknown) => {
          logger.warn({ err: error }, "Could not vacuum the credit reservations");
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  }

  const timer = setInterval(vacuum, intervalMs);
  timer.unref();

  return {
    /** Vacuums now (or waits for the run in progress). */
    vacuum,
    /** Stops the schedule and waits for a run in progress. */
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
