import { sql } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { createTestDatabase } from "../harness/database.ts";

const database = await createTestDatabase();
afterAll(() => database.close());

describe("the chunks' full-text index", () => {
  // With GIN's pending list, the chunk insert that found it past 4 MB merged it into the index
  // itself: 0.8 s of a large document's ingestion with every request of an embedded database's
  // process waiting (migration 0047).
  test("takes each entry as it is inserted, with nothing left pending", async () => {
    const [index] = rowsOf<{ options: string[] | null }>(
      await database.db.execute(sql`
        select reloptions as options from pg_class where relname = 'knowledge_chunks_search_idx'`),
    );
    expect(index?.options).toContain("fastupdate=off");
  });
});
