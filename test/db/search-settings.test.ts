import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { openDatabase, rowsOf } from "../../src/db/client.ts";
import { withSearchSettings } from "../../src/db/search-settings.ts";
import { createTestDatabase, testDatabaseKind } from "../harness/database.ts";

describe("HNSW search settings", () => {
  test("go in each connection's startup options, before the operator's own", () => {
    const url = new URL(
      withSearchSettings("postgres://u@db:5432/app?sslmode=require&options=-c%20work_mem%3D8MB"),
    );
    expect(url.searchParams.get("sslmode")).toBe("require");
    expect(url.searchParams.get("options")).toBe(
      "-c hnsw.ef_search=200 -c hnsw.iterative_scan=relaxed_order -c work_mem=8MB",
    );
  });

  test.skipIf(testDatabaseKind !== "postgres")(
    "hold in every pooled session, and an operator's value wins",
    async () => {
      const base = await createTestDatabase();
      const url = new URL(base.connectionString!);
      url.searchParams.set("options", "-c hnsw.ef_search=321");
      const database = await openDatabase({
        kind: "postgres",
        connectionString: url.toString(),
        poolSize: 2,
      });
      try {
        const shown = await Promise.all(
          [1, 2, 3].map(async () =>
            rowsOf<{ ef: string; scan: string }>(
              await database.db.execute(
                sql`select current_setting('hnsw.ef_search') as ef,
                  current_setting('hnsw.iterative_scan') as scan`,
              ),
            ),
          ),
        );
        for (const [row] of shown) expect(row).toEqual({ ef: "321", scan: "relaxed_order" });
      } finally {
        await database.close();
        await base.close();
      }
    },
  );
});
