import { sql } from "drizzle-orm";
import { pino } from "pino";
import { describe, expect, vi } from "vitest";
import { type Db, rowsOf } from "../../src/db/client.ts";
import { analyzeAfterWrites } from "../../src/domain/knowledge/chunk-statistics.ts";
import type { ChunkWriter, WriteOutcome } from "../../src/domain/knowledge/chunk-writer.ts";
import { databaseTest } from "../harness/fixtures.ts";

// The embedded database has no autovacuum: after syncs that store chunks, the service refreshes
// the chunk table's statistics itself, at most once a minute.

const test = databaseTest();
test.beforeAll(async ({ database }) => {
  await database.db.execute(sql`insert into organizations (id, name) values ('org', 'Org')`);
  await database.db.execute(sql`
    insert into datastores (id, organization_id, name, embedder_id, dimensions)
    values ('store', 'org', 'Store', 'local:test', 2)`);
  await database.db.execute(sql`
    insert into datasources (id, organization_id, datastore_id, type, name)
    values ('file', 'org', 'store', 'file', 'file')`);
});

/** A writer that stores `count` chunks, as a sync would, and reports `outcome`. */
function fakeWriter(db: Db, count: number, outcome: WriteOutcome): ChunkWriter {
  let batch = 0;
  return async () => {
    batch += 1;
    await db.execute(sql`
      insert into knowledge_chunks (id, organization_id, datastore_id, datasource_id, position,
        text, start_offset, end_offset, token_count, content_hash, dimensions, embedding)
      select 'c' || ${batch} || '-' || n || '-' || ${outcome}, 'org', 'store', 'file', n,
        'refund policy ' || n, 0, 1, 1, 'h' || n, 2, '{1,0}'::real[]
      from generate_series(1, ${count}) as n`);
    return outcome;
  };
}

const analyzedRows = async (db: Db) => {
  const [row] = rowsOf<{ reltuples: number }>(
    await db.execute(
      sql`select reltuples::float8 as reltuples from pg_class where relname = 'knowledge_chunks'`,
    ),
  );
  return Number(row!.reltuples);
};

describe("chunk statistics after writes", () => {
  test("analyzes after a sync that stored chunks, then waits a minute before the next", async ({
    database,
  }) => {
    let clock = 1_000_000;
    const logger = pino({ level: "silent" });
    const write = analyzeAfterWrites(fakeWriter(database.db, 40, "synched"), {
      db: database.db,
      logger,
      now: () => clock,
    });
    const input = {} as Parameters<ChunkWriter>[0];

    expect(await write(input)).toBe("synched");
    await vi.waitFor(async () => expect(await analyzedRows(database.db)).toBe(40));

    clock += 30_000;
    await write(input);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await analyzedRows(database.db)).toBe(40);

    clock += 30_000;
    await write(input);
    await vi.waitFor(async () => expect(await analyzedRows(database.db)).toBe(120));
  });

  test("leaves the statistics alone when a sync stored nothing", async ({ database }) => {
    const before = await analyzedRows(database.db);
    const write = analyzeAfterWrites(fakeWriter(database.db, 10, "superseded"), {
      db: database.db,
      logger: pino({ level: "silent" }),
    });
    expect(await write({} as Parameters<ChunkWriter>[0])).toBe("superseded");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await analyzedRows(database.db)).toBe(before);
  });
});
