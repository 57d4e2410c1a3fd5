import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { type Database, rowsOf } from "../../src/db/client.ts";
import { PLAN_PER_VALUE } from "../../src/db/prepared-statements.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { databaseTest } from "../harness/fixtures.ts";

// On PostgreSQL every parameterised statement becomes a named prepared statement of its
// connection (PGlite has no pool and runs statements as they come).

const test = databaseTest();

describe.skipIf(testDatabaseKind !== "postgres")("prepared statements", () => {
  /** The statements the connection of this transaction holds prepared. */
  const preparedIn = async (tx: Database["db"]) =>
    rowsOf<{ statement: string }>(
      await tx.execute(sql`select statement from pg_prepared_statements`),
    ).map((row) => row.statement);

  test("prepares a parameterised statement once per connection and reuses it", async ({
    database,
  }) => {
    await database.db.transaction(async (tx) => {
      for (const value of [1, 2, 3]) {
        const [row] = rowsOf<{ doubled: number }>(
          await tx.execute(sql`select ${value}::int * 2 as doubled`),
        );
        expect(row!.doubled).toBe(value * 2);
      }
      const prepared = (await preparedIn(tx)).filter((text) => text.includes("as doubled"));
      expect(prepared).toEqual(["select $1::int * 2 as doubled"]);
    });
  });

  test("leaves statements without parameters and those planned per value unnamed", async ({
    database,
  }) => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select 41 + 1 as answer`);
      await tx.execute(sql`select ${"x"}::text as planned ${sql.raw(PLAN_PER_VALUE)}`);
      const prepared = await preparedIn(tx);
      expect(prepared.some((text) => text.includes("as answer"))).toBe(false);
      expect(prepared.some((text) => text.includes("as planned"))).toBe(false);
    });
  });
});
