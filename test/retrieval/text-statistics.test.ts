import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { encodeEmbedding } from "../../src/retrieval/vector-encoding.ts";
import { testDatabaseKind } from "../harness/database.ts";
import {
  addFile,
  createDatastore,
  knowledgeTest,
  query,
  waitForSync,
} from "../knowledge/knowledge-helpers.ts";
import { searchOver } from "./search-over.ts";

// BM25's kept statistics (knowledge_lexeme_statistics, knowledge_text_totals) against a recount
// of the chunks after every way chunks change: ingestion, re-indexing, deletion through the API,
// cascades, direct updates, concurrent writers of one datastore.

type Execute = (statement: ReturnType<typeof sql>) => Promise<unknown>;

const test = knowledgeTest({ orgName: "Statistics" })
  .extend("execute", { scope: "file" }, ({ app }) => {
    return (statement: ReturnType<typeof sql>) => app.database.db.execute(statement);
  })
  .extend("synched", { scope: "file" }, ({ app, org }) => {
    return async (datastoreId: string, fileName: string, content: string) => {
      const created = await addFile(app, org, datastoreId, {
        fileName,
        contentType: "text/markdown",
        content,
      });
      const done = await waitForSync(app, org, created.id, 60_000);
      expect(done.status).toBe("synched");
      return created.id;
    };
  });

/** The kept statistics and a recount from the chunks, as comparable lists. */
async function keptAndCounted(execute: Execute) {
  const list = async (statement: ReturnType<typeof sql>) =>
    rowsOf<Record<string, unknown>>(await execute(statement)).map((row) =>
      Object.values(row).map(String).join(" "),
    );
  const [lexemes, counted, totals, countedTotals] = await Promise.all([
    list(sql`select datastore_id, dimensions, lexeme, chunks from knowledge_lexeme_statistics
             order by datastore_id, dimensions, lexeme collate "C"`),
    list(sql`select c.datastore_id, c.dimensions, u.lexeme, count(*) as chunks
             from knowledge_chunks c, unnest(c.search) u
             group by 1, 2, 3 order by 1, 2, u.lexeme collate "C"`),
    list(sql`select datastore_id, dimensions, chunks, positions from knowledge_text_totals
             order by 1, 2`),
    list(sql`select c.datastore_id, c.dimensions, count(*) as chunks,
               sum((select sum(coalesce(array_length(u.positions, 1), 1)) from unnest(c.search) u)) as positions
             from knowledge_chunks c group by 1, 2 order by 1, 2`),
  ]);
  return { lexemes, counted, totals, countedTotals };
}

async function expectStatisticsMatchChunks(execute: Execute) {
  const { lexemes, counted, totals, countedTotals } = await keptAndCounted(execute);
  expect(lexemes).toEqual(counted);
  expect(totals).toEqual(countedTotals);
}

const paragraph = (words: string[], seed: number) =>
  Array.from({ length: 40 }, (_, index) => words[(index * 7 + seed) % words.length]).join(" ");
const WORDS = ["pipe", "request", "boiler", "valve", "thermostat", "warranty", "leak", "invoice"];

describe(`BM25 statistics kept on ${testDatabaseKind}`, () => {
  test("follow ingestion, re-indexing and deletion through the API", async ({
    app,
    org,
    execute,
    synched,
  }) => {
    const store = await createDatastore(app, org, { name: "Plumbing" });
    const other = await createDatastore(app, org, { name: "Other" });
    const first = await synched(store.id, "a.md", `# A\n\n${paragraph(WORDS, 1)}\n\nThe pipe.`);
    await synched(store.id, "b.md", `# B\n\n${paragraph(WORDS, 3)}\n\n${paragraph(WORDS, 5)}`);
    await synched(other.id, "c.md", `# C\n\nA request about an invoice.`);
    await expectStatisticsMatchChunks(execute);
    const [kept] = rowsOf<{ chunks: number }>(
      await execute(sql`select chunks from knowledge_lexeme_statistics
                        where datastore_id = ${store.id} and lexeme = 'pipe'`),
    );
    expect(kept!.chunks).toBeGreaterThan(0);

    const updated = await app.client(org.auth).datastores.updateText(store.id, {
      id: first,
      text: "Only a radiator now.",
    });
    expect(updated.status).toBe(200);
    expect((await waitForSync(app, org, first, 60_000)).status).toBe("synched");
    await expectStatisticsMatchChunks(execute);

    expect((await app.client(org.auth).datasources.delete(first)).status).toBe(200);
    await expectStatisticsMatchChunks(execute);
    expect((await app.client(org.auth).datastores.delete(other.id)).status).toBe(200);
    await expectStatisticsMatchChunks(execute);
    const left = rowsOf(
      await execute(sql`select 1 from knowledge_text_totals where datastore_id = ${other.id}`),
    );
    expect(left).toEqual([]);

    // The search still answers from the statistics left.
    const response = await query(app, org, store.id, { query: "pipe leak", mode: "text" });
    expect(response.status).toBe(200);
    expect(response.body.length).toBeGreaterThan(0);
  });

  test("follow direct updates of text and placement, and vectors of another size", async ({
    app,
    org,
    execute,
    synched,
  }) => {
    const store = await createDatastore(app, org, { name: "Direct" });
    const source = await synched(store.id, "d.md", `# D\n\n${paragraph(WORDS, 2)}`);
    await execute(sql`
      insert into knowledge_chunks (id, organization_id, datastore_id, datasource_id, position,
        text, start_offset, end_offset, token_count, content_hash, dimensions, embedding)
      values ('other-size', ${org.id}, ${store.id}, ${source}, 9, 'pipe pipe valve', 0, 1, 1, 'h',
        3, ${`{${encodeEmbedding([1, 0, 0]).join(",")}}`}::real[])`);
    await expectStatisticsMatchChunks(execute);
    await execute(
      sql`update knowledge_chunks set position = position + 100 where datastore_id = ${store.id}`,
    );
    await expectStatisticsMatchChunks(execute);
    await execute(
      sql`update knowledge_chunks set text = 'a warranty claim' where id = 'other-size'`,
    );
    await expectStatisticsMatchChunks(execute);
    await execute(sql`update knowledge_chunks set dimensions = 5 where id = 'other-size'`);
    await expectStatisticsMatchChunks(execute);
    await execute(sql`delete from knowledge_chunks where id = 'other-size'`);
    await expectStatisticsMatchChunks(execute);
  });

  test("stay exact under concurrent writers of one datastore, without deadlocks", async ({
    app,
    org,
    execute,
    synched,
  }) => {
    const store = await createDatastore(app, org, { name: "Concurrent" });
    const source = await synched(store.id, "e.md", "# E\n\nStart.");
    const [row] = rowsOf<{ dimensions: number }>(
      await execute(sql`select dimensions from datastores where id = ${store.id}`),
    );
    const dimensions = row!.dimensions;
    const vector = `{${encodeEmbedding([1, ...Array(dimensions - 1).fill(0)]).join(",")}}`;
    // Each writer inserts chunks whose lexemes overlap the others', in its own order, then
    // deletes some: on PostgreSQL the transactions run at once on separate connections.
    await Promise.all(
      Array.from({ length: 8 }, (_, writer) =>
        app.database.db.transaction(async (tx) => {
          const words = writer % 2 === 0 ? WORDS : [...WORDS].reverse();
          for (let index = 0; index < 5; index += 1) {
            await tx.execute(sql`
              insert into knowledge_chunks (id, organization_id, datastore_id, datasource_id,
                position, text, start_offset, end_offset, token_count, content_hash, dimensions,
                embedding)
              values (${`w${writer}-${index}`}, ${org.id}, ${store.id}, ${source}, ${index},
                ${paragraph(words, writer + index)}, 0, 1, 1, 'h', ${dimensions}, ${vector}::real[])`);
          }
          await tx.execute(sql`delete from knowledge_chunks where id = ${`w${writer}-0`}`);
        }),
      ),
    );
    await expectStatisticsMatchChunks(execute);
  });

  test("rank several datastores alike in the application and in SQL", async ({
    app,
    org,
    execute,
    synched,
  }) => {
    const stores = [
      await createDatastore(app, org, { name: "Left" }),
      await createDatastore(app, org, { name: "Right" }),
    ];
    await synched(stores[0]!.id, "l.md", `# L\n\n${paragraph(WORDS, 1)}\n\nA pipe valve.`);
    await synched(stores[1]!.id, "r.md", `# R\n\n${paragraph(WORDS.slice(2), 4)}\n\nA pipe.`);
    const rows = rowsOf<{ id: string; knowledge_version: string; dimensions: number }>(
      await execute(sql`select id, knowledge_version, dimensions from datastores
                        where id in ${stores.map((store) => store.id)} order by id`),
    );
    const request = {
      datastores: rows.map((store) => ({
        id: store.id,
        knowledgeVersion: Number(store.knowledge_version),
      })),
      dimensions: rows[0]!.dimensions,
      queryVector: [],
      queryText: "pipe valve request",
      topK: 10,
      mode: "text" as const,
    };
    const inApplication = await searchOver(app.database, 64 * 1024 * 1024)(request);
    const inDatabase = await searchOver(app.database, 0)(request);
    expect(inApplication.length).toBeGreaterThan(1);
    expect(new Set(inApplication.map((hit) => hit.datastoreId)).size).toBe(2);
    expect(inApplication).toEqual(inDatabase);
  });
});
