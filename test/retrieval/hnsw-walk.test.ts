import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { vectorRanksInSql } from "../../src/retrieval/hybrid-search.ts";
import { encodeEmbedding } from "../../src/retrieval/vector-encoding.ts";
import { testDatabaseKind, withoutPgvector } from "../harness/database.ts";
import { databaseTest } from "../harness/fixtures.ts";
import { createUnitVectors } from "./unit-vectors.ts";

// Where the database ranks the vectors of a datastore (PostgreSQL with pgvector), the vector side
// walks the HNSW index, also for a datastore alone in its table, where the planner priced a sort
// of all its chunks as cheaper: vectors are stored out of line and it did not count reading them
// (src/retrieval/vector-index.ts).
const CHUNKS = 1_000;

const test = databaseTest();

describe.skipIf(testDatabaseKind !== "postgres" || withoutPgvector)("the HNSW walk", () => {
  test.beforeAll(async ({ database }) => {
    await database.db.execute(sql`insert into organizations (id, name) values ('org', 'Org')`);
    await database.db.execute(sql`
      insert into datastores (id, organization_id, name, embedder_id, dimensions)
        values ('store', 'org', 'Store', 'local:test', 512)`);
    await database.db.execute(sql`
      insert into datasources (id, organization_id, datastore_id, type, name)
        values ('source', 'org', 'store', 'file', 'source')`);
    await database.db.execute(sql`
      insert into knowledge_chunks (id, organization_id, datastore_id, datasource_id, position,
        text, start_offset, end_offset, token_count, content_hash, dimensions, embedding)
      select 'chunk-' || n, 'org', 'store', 'source', n, 'chunk ' || n, 0, 1, 1, 'hash-' || n, 512,
        (select array_agg(round(sin(n * 512 + g) * 46341)::real) from generate_series(1, 512) g)
      from generate_series(1, ${CHUNKS}) n`);
    await database.db.execute(sql`analyze knowledge_chunks`);
  });

  test("answers a datastore's vector ranking from the index rather than a sort of its chunks", async ({
    database,
  }) => {
    const statement = vectorRanksInSql({
      encoded: encodeEmbedding(createUnitVectors(512, 3)()),
      dimensions: 512,
      filter: sql`c.datastore_id in ('store') and c.dimensions = 512`,
      candidates: 50,
      hasPgvector: true,
      hnswIndexes: true,
    });
    const plan = rowsOf<{ "QUERY PLAN": string }>(
      await database.db.execute(sql`explain ${statement}`),
    ).map((row) => row["QUERY PLAN"]);
    expect(plan.join("\n")).toContain("Index Scan using knowledge_chunks_embedding_512_idx");
    const ranked = rowsOf<{ id: string }>(await database.db.execute(statement));
    expect(ranked).toHaveLength(50);
  });
});
