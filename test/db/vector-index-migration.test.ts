import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { indexedVector } from "../../src/retrieval/vector-index.ts";
import { createTestDatabaseFromMigration, withoutPgvector } from "../harness/database.ts";
import { databaseTest } from "../harness/fixtures.ts";

// Migration 0028 rebuilds the HNSW indexes of a database that has them (pgvector installed, the
// default embedder's from migration 0003 and those the service added for other dimension counts)
// over unit vectors in half precision, under the same names, with the chunks already stored.
const unitVector = (dimensions: number, component: number) =>
  `(select array_agg(case when g = ${component} then 1048576 else 0 end)::real[]
    from generate_series(1, ${dimensions}) g)`;

const test = databaseTest(() =>
  createTestDatabaseFromMigration("0027_billing_reserve_one_row", async (execute) => {
    await execute(`
      insert into organizations (id, name) values ('org-1', 'Org');
      insert into datastores (id, organization_id, name, embedder_id, dimensions) values
        ('store-512', 'org-1', 'Default', 'local:hash-ngram-v1', 512),
        ('store-8', 'org-1', 'Small', 'openai:tiny', 8);
      insert into datasources (id, organization_id, datastore_id, type, name, status) values
        ('source-512', 'org-1', 'store-512', 'text', 'a', 'synched'),
        ('source-8', 'org-1', 'store-8', 'text', 'b', 'synched');
      insert into knowledge_chunks (id, organization_id, datastore_id, datasource_id, position, text,
        start_offset, end_offset, token_count, content_hash, dimensions, embedding)
      select 'chunk-512-' || n, 'org-1', 'store-512', 'source-512', n, 'text ' || n, 0, 6, 2,
        'hash-' || n, 512, ${unitVector(512, 1)} from generate_series(1, 3) n
      union all
      select 'chunk-8-' || n, 'org-1', 'store-8', 'source-8', n, 'text ' || n, 0, 6, 2,
        'hash-' || n, 8, ${unitVector(8, 1)} from generate_series(1, 3) n;
      create index knowledge_chunks_embedding_8_idx on knowledge_chunks
        using hnsw ((embedding::vector(8)) vector_cosine_ops) where dimensions = 8;
    `);
  }),
);

describe.skipIf(withoutPgvector)("HNSW indexes from before migration 0028", () => {
  // Migrated from scratch under a hook's time limit rather than the first test's.
  test.beforeAll(({ database }) => {
    void database;
  });

  test("are rebuilt over unit vectors in half precision, under their names", async ({
    database,
  }) => {
    const indexes = rowsOf<{ indexname: string; indexdef: string }>(
      await database.db.execute(
        sql`select indexname, indexdef from pg_indexes
            where tablename = 'knowledge_chunks' and indexdef like '% USING hnsw %'
            order by indexname`,
      ),
    );
    expect(indexes.map((index) => index.indexname)).toEqual([
      "knowledge_chunks_embedding_512_idx",
      "knowledge_chunks_embedding_8_idx",
    ]);
    for (const [index, dimensions] of [
      [indexes[0], 512],
      [indexes[1], 8],
    ] as const) {
      expect(index?.indexdef).toContain(
        `knowledge_unit_halfvec((embedding)::vector(${dimensions})))::halfvec(${dimensions})`,
      );
      expect(index?.indexdef).toContain("halfvec_cosine_ops");
      expect(index?.indexdef).toContain("ef_construction='128'");
      expect(index?.indexdef).toContain(`WHERE (dimensions = ${dimensions})`);
    }
  });

  test("answer from the rebuilt index with the chunks stored before", async ({ database }) => {
    // The expression the service's searches order by, so the rebuilt index must be the one they walk.
    const nearest = sql`select id from knowledge_chunks where dimensions = 8
      order by ${indexedVector(sql`embedding`, 8)} <=> ${indexedVector(sql`'[1,0,0,0,0,0,0,0]'`, 8)}
      limit 5`;
    const [plan, rows] = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_sort = off`);
      return [
        rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql`explain ${nearest}`)),
        rowsOf<{ id: string }>(await tx.execute(nearest)),
      ];
    });
    expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toContain(
      "Index Scan using knowledge_chunks_embedding_8_idx",
    );
    expect(rows.map((row) => row.id).sort()).toEqual(["chunk-8-1", "chunk-8-2", "chunk-8-3"]);
  });
});
