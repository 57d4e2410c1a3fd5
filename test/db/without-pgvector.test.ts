import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { vectorRanksInSql } from "../../src/retrieval/hybrid-search.ts";
import { encodeEmbedding } from "../../src/retrieval/vector-encoding.ts";
import { startTestApp } from "../harness/app.ts";
import { testDatabaseKind, withoutPgvector } from "../harness/database.ts";
import { appTest } from "../harness/fixtures.ts";
import { addFile, createDatastore, query, waitForSync } from "../knowledge/knowledge-helpers.ts";

// What the database can do decides how the knowledge search ranks: pgvector's HNSW with the
// session's search settings, or exact scoring where the extension cannot be installed. Either
// way a datastore query answers the same.

const test = appTest();

const DOCUMENTS = [
  ["hours.md", "# Opening hours\n\nWe are open Monday to Friday, 9:00 to 17:00."],
  ["refunds.md", "# Refunds\n\nRefunds are accepted within 30 days of delivery."],
  ["shipping.md", "# Shipping\n\nParcels leave the warehouse in Rotterdam every weekday at noon."],
];

let datastoreId: string;
test.beforeAll(async ({ app, org }) => {
  datastoreId = (await createDatastore(app, org, { name: "Help centre" })).id;
  for (const [fileName, content] of DOCUMENTS) {
    const datasource = await addFile(app, org, datastoreId, {
      fileName: fileName!,
      contentType: "text/markdown",
      content: content!,
    });
    expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
  }
});

describe(`the vector index (${withoutPgvector ? "without pgvector" : testDatabaseKind})`, () => {
  test("has pgvector where it could be installed, and an HNSW index only on PostgreSQL", async ({
    app,
  }) => {
    expect(app.database.hasPgvector).toBe(!withoutPgvector);
    const indexes = rowsOf<{ indexname: string }>(
      await app.database.db.execute(
        sql`select indexname from pg_indexes where tablename = 'knowledge_chunks' and indexdef like '%hnsw%'`,
      ),
    );
    // The embedded database ranks vectors exactly, in the application or in SQL.
    expect(indexes.length > 0).toBe(testDatabaseKind === "postgres" && !withoutPgvector);
  });

  test.runIf(testDatabaseKind === "postgres" && !withoutPgvector)(
    "walks an index over unit vectors in half precision for the vector side of a search",
    async ({ app }) => {
      const [index] = rowsOf<{ indexdef: string }>(
        await app.database.db.execute(
          sql`select indexdef from pg_indexes where indexname = 'knowledge_chunks_embedding_512_idx'`,
        ),
      );
      expect(index?.indexdef).toContain("halfvec_cosine_ops");
      expect(index?.indexdef).toContain("ef_construction='128'");

      const statement = vectorRanksInSql({
        encoded: encodeEmbedding(Array.from({ length: 512 }, (_, i) => (i === 3 ? 1 : 0))),
        dimensions: 512,
        filter: sql`c.datastore_id in (${datastoreId}) and c.dimensions = 512`,
        candidates: 50,
        hasPgvector: true,
        hnswIndexes: true,
      });
      // Three chunks are cheaper to sort than to walk: the question is whether the planner can
      // answer the statement's order from the index at all, i.e. whether the expressions match.
      const plan = await app.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_sort = off`);
        await tx.execute(sql`set local enable_seqscan = off`);
        return rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql`explain ${statement}`));
      });
      expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toContain(
        "Index Scan using knowledge_chunks_embedding_512_idx",
      );
    },
  );

  test("sets the HNSW search settings on every connection, without a statement per search", async ({
    app,
  }) => {
    // Several at once, so that a pool opens several connections.
    const settings = await Promise.all(
      Array.from({ length: 4 }, async () =>
        rowsOf<{ ef_search: string; iterative_scan: string }>(
          await app.database.db.execute(sql`
            select current_setting('hnsw.ef_search', true) as ef_search,
                   current_setting('hnsw.iterative_scan', true) as iterative_scan,
                   pg_sleep(0.05)`),
        ),
      ),
    );
    for (const [row] of settings) {
      expect(row).toMatchObject({ ef_search: "200", iterative_scan: "relaxed_order" });
    }
  });

  test("answers a datastore query the same from the copies and from SQL alone", async ({
    app,
    org,
  }) => {
    const inSql = await startTestApp({
      database: app.database,
      env: { KNOWLEDGE_EXACT_CACHE_MB: "0" },
    });
    try {
      for (const question of ["When are you open?", "refund within days", "Rotterdam parcels"]) {
        const copied = await query(app, org, datastoreId, { query: question, topK: 3 });
        const ranked = await query(inSql, org, datastoreId, { query: question, topK: 3 });
        expect(copied.status).toBe(200);
        expect(copied.body).toEqual(ranked.body);
      }
      const hours = await query(app, org, datastoreId, { query: "When are you open?", topK: 1 });
      expect(JSON.stringify(hours.body)).toContain("Monday to Friday");
    } finally {
      await inSql.close();
    }
  });
});
