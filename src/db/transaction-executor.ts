import { type SQL, sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/** Numbered parameters of a statement: `$1`, `$2`… */
const PARAMETER = /\$(\d+)/;

/**
 * Runs pg-boss's SQL in one of our transactions (pg-boss's `db` option), so a job is queued
 * exactly when the transaction that needs it commits. Its statements use numbered parameters;
 * each becomes a bound parameter of a drizzle statement, never text in the SQL.
 */
export function transactionExecutor(tx: Db) {
  return {
    async executeSql(text: string, values: readonly unknown[] = []): Promise<{ rows: unknown[] }> {
      const pieces = text.split(PARAMETER);
      const parts: SQL[] = pieces.map((piece, index) =>
        index % 2 === 0 ? sql.raw(piece) : sql`${values[Number(piece) - 1] ?? null}`,
      );
      const result = (await tx.execute(sql.join(parts))) as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}
