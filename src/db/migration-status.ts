import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "./client.ts";

const journalFile = join(dirname(fileURLToPath(import.meta.url)), "migrations/meta/_journal.json");

/** The journal time of the last migration this build ships (drizzle's `created_at` of it). */
function latestShippedMigration(): number {
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Whether the database has recorded the latest migration this build ships. drizzle records each
 * applied migration in drizzle.__drizzle_migrations with its journal time as `created_at`.
 */
export function createMigrationCheck(db: Db): () => Promise<boolean> {
  const latest = latestShippedMigration();
  return async () => {
    const result = await db.execute(
      sql`select coalesce(max(created_at), 0)::text as latest from drizzle.__drizzle_migrations`,
    );
    const [row] = rowsOf<{ latest: string }>(result);
    return Number(row?.latest ?? 0) >= latest;
  };
}
