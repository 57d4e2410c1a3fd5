import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { type Db, rowsOf } from "../../src/db/client.ts";
import { createChunkRepo } from "../../src/domain/knowledge/chunk-repo.ts";
import { createChunkWriter, SyncAbortedError } from "../../src/domain/knowledge/chunk-writer.ts";
import {
  createDatasourceRepo,
  type DatasourceRow,
} from "../../src/domain/knowledge/datasource-repo.ts";
import { createDatasourceSyncRepo } from "../../src/domain/knowledge/datasource-sync-repo.ts";
import { createDatastoreRepo } from "../../src/domain/knowledge/datastore-repo.ts";
import { createLocalEmbedder } from "../../src/ingestion/embedders/local-embedder.ts";
import { newId } from "../../src/lib/ids.ts";
import { knowledgeTest } from "./knowledge-helpers.ts";

// The chunk writer inserts new chunks a few at a time, each batch in a transaction of its own
// that first checks the run still holds its datasource. Two chunks per batch here.
const BATCH_ROWS = 2;

// About six chunks of ~512 tokens: distinct paragraphs, so no two chunks share a content hash.
const sections = [
  {
    text: Array.from(
      { length: 100 },
      (_, index) =>
        `Paragraph ${index} explains topic number ${index} of the handbook in enough words to ` +
        `fill the chunk, with details that only paragraph ${index} has.`,
    ).join("\n\n"),
    metadata: {},
  },
];

const test = knowledgeTest({ orgName: "Batches", role: "api" }).extend(
  "batches",
  { scope: "file" },
  async ({ app, org, datastore }) => {
    const store = (await createDatastoreRepo(app.database.db).find(org.id, datastore.id))!;

    /** A claimed datasource, as the ingestion job has it when it writes. */
    async function claimedDatasource(): Promise<DatasourceRow> {
      const datasources = createDatasourceRepo(app.database.db);
      const row = await datasources.insert({
        id: newId(),
        organizationId: org.id,
        datastoreId: store.id,
        type: "text",
        name: "handbook",
      });
      const syncRuns = createDatasourceSyncRepo(app.database.db);
      await syncRuns.requestSync(org.id, row.id);
      return (await syncRuns.claim(org.id, row.id, 1, new Date(Date.now() + 60_000)))!;
    }

    /** The database, counting the transactions opened, with a hook run before number `n`. */
    function instrumented(n = 0, hook = async () => {}) {
      const counter = { opened: 0 };
      const db = new Proxy(app.database.db, {
        get(target, name, receiver) {
          if (name !== "transaction") return Reflect.get(target, name, receiver);
          return async (run: (tx: Db) => Promise<unknown>) => {
            counter.opened += 1;
            if (counter.opened === n) await hook();
            return target.transaction(run);
          };
        },
      });
      return { db, counter };
    }

    function writerOver(db: Db) {
      return createChunkWriter({
        db,
        datasources: createDatasourceRepo(app.database.db),
        syncRuns: createDatasourceSyncRepo(app.database.db),
        plans: app.runtime.services.billing,
        chunks: createChunkRepo(app.database.db),
        storedTokenLimits: {},
        chargeEmbedding: async () => {},
        insertBatchRows: BATCH_ROWS,
        parser: app.runtime.services.parser,
      });
    }

    async function chunkCount(datasourceId: string): Promise<number> {
      const result = await app.database.db.execute(
        sql`select count(*)::int as count from knowledge_chunks where datasource_id = ${datasourceId}`,
      );
      return rowsOf<{ count: number }>(result)[0]!.count;
    }

    function write(db: Db, row: DatasourceRow, signal = new AbortController().signal) {
      return writerOver(db)({
        row,
        store,
        embedder: createLocalEmbedder(),
        sections,
        sourceUrl: null,
        sizeBytes: 1,
        guard: { datasourceId: row.id, run: { generation: 1, attempt: row.syncAttempt } },
        signal,
      });
    }

    return { claimedDatasource, instrumented, chunkCount, write };
  },
);

describe("chunk writer batches", () => {
  test("inserts a few chunks per transaction, then marks the datasource synched", async ({
    app,
    batches,
  }) => {
    const { claimedDatasource, instrumented, chunkCount, write } = batches;
    const row = await claimedDatasource();
    const { db, counter } = instrumented();
    expect(await write(db, row)).toBe("synched");
    const stored = await chunkCount(row.id);
    expect(stored).toBeGreaterThan(2 * BATCH_ROWS);
    // One transaction per batch, and the last one that removes, moves and marks synched.
    expect(counter.opened).toBe(Math.ceil(stored / BATCH_ROWS) + 1);
    const [synched] = rowsOf<{ status: string; chunk_count: number }>(
      await app.database.db.execute(
        sql`select status, chunk_count from datasources where id = ${row.id}`,
      ),
    );
    expect(synched).toEqual({ status: "synched", chunk_count: stored });
  });

  test("stops when a newer run claims the datasource between batches, leaving it what it added", async ({
    app,
    org,
    batches,
  }) => {
    const { claimedDatasource, instrumented, chunkCount, write } = batches;
    const row = await claimedDatasource();
    const datasources = createDatasourceRepo(app.database.db);
    const { db } = instrumented(2, async () => {
      await createDatasourceSyncRepo(app.database.db).claim(
        org.id,
        row.id,
        1,
        new Date(Date.now() + 60_000),
      );
    });
    expect(await write(db, row)).toBe("superseded");
    // The first batch is the newer run's to keep (same content hash) or remove.
    expect(await chunkCount(row.id)).toBe(BATCH_ROWS);
    expect((await datasources.find(org.id, row.id))?.status).toBe("running");
  });

  test("deletes the chunks it added when it is stopped between batches", async ({ batches }) => {
    const { claimedDatasource, instrumented, chunkCount, write } = batches;
    const row = await claimedDatasource();
    const controller = new AbortController();
    const { db } = instrumented(2, async () => {
      controller.abort();
    });
    await expect(write(db, row, controller.signal)).rejects.toThrow(SyncAbortedError);
    expect(await chunkCount(row.id)).toBe(0);
  });
});
