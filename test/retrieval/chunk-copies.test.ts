import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { type Db, rowsOf } from "../../src/db/client.ts";
import { type ChunkCopies, createChunkCopies } from "../../src/retrieval/chunk-copies.ts";
import type { SearchFilters } from "../../src/retrieval/search-filters.ts";
import { encodeEmbedding } from "../../src/retrieval/vector-encoding.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { databaseTest } from "../harness/fixtures.ts";
import { searchOver } from "./search-over.ts";
import { createUnitVectors } from "./unit-vectors.ts";

// The in-application exact scorer against the database's own exact scoring (SQL over real[]),
// on random unit vectors, and its copies against every way chunks change underneath it.

const DIMENSIONS = 16;
const unitVector = createUnitVectors(DIMENSIONS, 7);
let chunkSerial = 0;

const test = databaseTest();

async function addDatastore(db: Db, id: string) {
  await db.execute(sql`
    insert into datastores (id, organization_id, name, embedder_id, dimensions)
    values (${id}, 'org', ${id}, 'local:test', ${DIMENSIONS})`);
}

async function addDatasource(
  db: Db,
  id: string,
  datastoreId: string,
  groupId: string | null = null,
) {
  await db.execute(sql`
    insert into datasources (id, organization_id, datastore_id, group_id, type, name)
    values (${id}, 'org', ${datastoreId}, ${groupId}, ${groupId ? "web_page" : "file"}, ${id})`);
}

async function addChunks(
  db: Db,
  datastoreId: string,
  datasourceId: string,
  count: number,
  customId: string | null = null,
) {
  for (let index = 0; index < count; index += 1) {
    chunkSerial += 1;
    const id = `${datasourceId}-${index}-${chunkSerial}`;
    await db.execute(sql`
      insert into knowledge_chunks (id, organization_id, datastore_id, datasource_id, custom_id,
        position, text, start_offset, end_offset, token_count, content_hash, dimensions, embedding)
      values (${id}, 'org', ${datastoreId}, ${datasourceId}, ${customId}, ${index}, ${`chunk ${id}`},
        0, 1, 1, ${id}, ${DIMENSIONS}, ${`{${encodeEmbedding(unitVector()).join(",")}}`}::real[])`);
  }
}

async function versionsOf(db: Db, ...ids: string[]) {
  const rows = rowsOf<{ id: string; knowledge_version: string | number }>(
    await db.execute(
      sql`select id, knowledge_version from datastores where id in ${ids} order by id`,
    ),
  );
  return rows.map((row) => ({ id: row.id, knowledgeVersion: Number(row.knowledge_version) }));
}

type NearestRequest = {
  datastores: Array<{ id: string; knowledgeVersion: number }>;
  dimensions: number;
  queryVector: number[];
  filters?: SearchFilters;
  limit: number;
};

async function nearest(copies: ChunkCopies, request: NearestRequest) {
  const copied = await copies.of(request.datastores, request.dimensions);
  return copied ? copied.nearest(request.queryVector, request.filters, request.limit) : null;
}

/** The same ranking computed by PostgreSQL: dot products over real[] in float8, ties by id. */
async function sqlNearest(db: Db, request: NearestRequest): Promise<string[]> {
  const query = `{${encodeEmbedding(request.queryVector).join(",")}}`;
  const datastoreIds = request.datastores.map((store) => store.id);
  const datasourceIds = request.filters?.datasourceIds ?? [];
  const customIds = request.filters?.customIds ?? [];
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select c.id from knowledge_chunks c join datasources s on s.id = c.datasource_id
      where c.datastore_id in ${datastoreIds}
        and (${datasourceIds.length === 0} or c.datasource_id = any(${`{${datasourceIds.join(",")}}`}::text[])
             or s.group_id = any(${`{${datasourceIds.join(",")}}`}::text[]))
        and (${customIds.length === 0} or c.custom_id = any(${`{${customIds.join(",")}}`}::text[]))
      order by (select sum(a::float8 * b) from unnest(c.embedding, ${query}::real[]) as t(a, b)) desc, c.id
      limit ${request.limit}`),
  );
  return rows.map((row) => row.id);
}

test.beforeAll(async ({ database }) => {
  await database.db.execute(sql`insert into organizations (id, name) values ('org', 'Org')`);
  await addDatastore(database.db, "store-a");
  await addDatastore(database.db, "store-b");
  await addDatasource(database.db, "file-a", "store-a");
  await addDatasource(database.db, "site-a", "store-a");
  await addDatasource(database.db, "page-a", "store-a", "site-a");
  await addDatasource(database.db, "file-b", "store-b");
  await addChunks(database.db, "store-a", "file-a", 60, "manual");
  await addChunks(database.db, "store-a", "page-a", 40);
  await addChunks(database.db, "store-b", "file-b", 50, "faq");
}, 60_000);

describe(`exact vector scoring in the application (${testDatabaseKind})`, () => {
  test("ranks exactly as PostgreSQL does, across datastores and with every filter", async ({
    database,
  }) => {
    const index = createChunkCopies({
      db: database.db,
      maxBytes: 10 * 1024 * 1024,
      maxVectorValues: Infinity,
      vectorsFirst: true,
    });
    const cases: Array<Omit<NearestRequest, "datastores" | "queryVector"> & { stores: string[] }> =
      [
        { stores: ["store-a"], dimensions: DIMENSIONS, limit: 10 },
        { stores: ["store-a", "store-b"], dimensions: DIMENSIONS, limit: 25 },
        {
          stores: ["store-a"],
          dimensions: DIMENSIONS,
          limit: 10,
          filters: { datasourceIds: ["site-a"] },
        },
        {
          stores: ["store-a", "store-b"],
          dimensions: DIMENSIONS,
          limit: 10,
          filters: { customIds: ["faq"] },
        },
        {
          stores: ["store-a"],
          dimensions: DIMENSIONS,
          limit: 200,
          filters: { datasourceIds: ["file-a"], customIds: ["manual"] },
        },
      ];
    for (const { stores, ...rest } of cases) {
      for (let round = 0; round < 3; round += 1) {
        const request = {
          ...rest,
          datastores: await versionsOf(database.db, ...stores),
          queryVector: unitVector(),
        };
        const expected = await sqlNearest(database.db, request);
        expect(expected.length).toBeGreaterThan(0);
        expect(await nearest(index, request)).toEqual(expected);
      }
    }
  });

  test("keeps only chunks of the site's pages for a web_site filter", async ({ database }) => {
    const index = createChunkCopies({
      db: database.db,
      maxBytes: 10 * 1024 * 1024,
      maxVectorValues: Infinity,
      vectorsFirst: true,
    });
    const ids = await nearest(index, {
      datastores: await versionsOf(database.db, "store-a"),
      dimensions: DIMENSIONS,
      queryVector: unitVector(),
      filters: { datasourceIds: ["site-a"] },
      limit: 100,
    });
    expect(ids).toHaveLength(40);
    expect(ids!.every((id) => id.startsWith("page-a-"))).toBe(true);
  });

  test("sees every insert, update and delete, including cascades, at the next query", async ({
    database,
  }) => {
    const index = createChunkCopies({
      db: database.db,
      maxBytes: 10 * 1024 * 1024,
      maxVectorValues: Infinity,
      vectorsFirst: true,
    });
    await addDatastore(database.db, "store-c");
    await addDatasource(database.db, "file-c", "store-c");
    const everything = async () =>
      nearest(index, {
        datastores: await versionsOf(database.db, "store-c"),
        dimensions: DIMENSIONS,
        queryVector: unitVector(),
        limit: 1_000,
      });
    const onlyCustom = async (customId: string) =>
      nearest(index, {
        datastores: await versionsOf(database.db, "store-c"),
        dimensions: DIMENSIONS,
        queryVector: unitVector(),
        filters: { customIds: [customId] },
        limit: 1_000,
      });

    expect(await everything()).toEqual([]);
    await addChunks(database.db, "store-c", "file-c", 5);
    expect(await everything()).toHaveLength(5);

    await database.db.execute(
      sql`update knowledge_chunks set custom_id = 'moved' where datasource_id = 'file-c'`,
    );
    expect(await onlyCustom("moved")).toHaveLength(5);

    await database.db.execute(
      sql`update knowledge_chunks set text = 'zebra crossing' where id = (select min(id) from knowledge_chunks where datasource_id = 'file-c')`,
    );
    const copied = await index.of(await versionsOf(database.db, "store-c"), DIMENSIONS);
    expect(copied!.rankText(["zebra"], undefined, 10)).toHaveLength(1);

    await database.db.execute(
      sql`delete from knowledge_chunks where id in (select id from knowledge_chunks where datasource_id = 'file-c' limit 2)`,
    );
    expect(await everything()).toHaveLength(3);

    await database.db.execute(sql`delete from datasources where id = 'file-c'`);
    expect(await everything()).toEqual([]);
  });

  test("raises the version once per statement and survives deleting the datastore itself", async ({
    database,
  }) => {
    await addDatastore(database.db, "store-d");
    await addDatasource(database.db, "file-d", "store-d");
    const [before] = await versionsOf(database.db, "store-d");
    await addChunks(database.db, "store-d", "file-d", 3);
    const [after] = await versionsOf(database.db, "store-d");
    expect(after!.knowledgeVersion).toBe(before!.knowledgeVersion + 3);
    await database.db.execute(sql`delete from datastores where id = 'store-d'`);
    expect(await versionsOf(database.db, "store-d")).toEqual([]);
  });

  test("declines a datastore larger than its budget and stays within the budget", async ({
    database,
  }) => {
    const vectorBytes = DIMENSIONS * 4 + 200;
    const request = {
      dimensions: DIMENSIONS,
      queryVector: unitVector(),
      limit: 5,
    };
    const sizeOf = async (store: string) => {
      const roomy = createChunkCopies({
        db: database.db,
        maxBytes: 10 * 1024 * 1024,
        maxVectorValues: Infinity,
        vectorsFirst: true,
      });
      const copied = await roomy.of(await versionsOf(database.db, store), DIMENSIONS);
      expect(copied!.rankText(["chunk"], undefined, 5)).toHaveLength(5);
      return roomy.heldBytes();
    };
    const [sizeA, sizeB] = [await sizeOf("store-a"), await sizeOf("store-b")];
    // 100 chunks against 50, each with its vector, postings and ids.
    expect(sizeA).toBeGreaterThan(sizeB);
    expect(sizeB).toBeGreaterThan(50 * vectorBytes);

    // The vectors of store-a do not fit: it is ranked in SQL.
    const small = createChunkCopies({
      db: database.db,
      maxBytes: 55 * vectorBytes,
      maxVectorValues: Infinity,
      vectorsFirst: true,
    });
    expect(
      await nearest(small, { ...request, datastores: await versionsOf(database.db, "store-a") }),
    ).toBeNull();
    expect(
      await nearest(small, { ...request, datastores: await versionsOf(database.db, "store-b") }),
    ).toEqual(
      await sqlNearest(database.db, {
        ...request,
        datastores: await versionsOf(database.db, "store-b"),
      }),
    );
    expect(small.heldBytes()).toBe(50 * vectorBytes);

    // Room for the vectors of store-b but not its postings: its full text is ranked in SQL.
    const vectorsOnly = createChunkCopies({
      db: database.db,
      maxBytes: 50 * vectorBytes + 10,
      maxVectorValues: Infinity,
      vectorsFirst: true,
    });
    const copied = await vectorsOnly.of(await versionsOf(database.db, "store-b"), DIMENSIONS);
    expect(copied!.nearest(request.queryVector, undefined, 5)).toHaveLength(5);
    expect(copied!.rankText(["chunk"], undefined, 5)).toBeNull();
    expect(vectorsOnly.heldBytes()).toBe(50 * vectorBytes);

    const tight = createChunkCopies({
      db: database.db,
      maxBytes: sizeA,
      maxVectorValues: Infinity,
      vectorsFirst: true,
    });
    await nearest(tight, { ...request, datastores: await versionsOf(database.db, "store-a") });
    expect(tight.heldBytes()).toBe(sizeA);
    await nearest(tight, { ...request, datastores: await versionsOf(database.db, "store-b") });
    expect(tight.heldBytes()).toBe(sizeB);
  });

  test("leaves the vectors of a datastore above maxVectorValues to the database, not its text", async ({
    database,
  }) => {
    const copies = createChunkCopies({
      db: database.db,
      maxBytes: 10 * 1024 * 1024,
      maxVectorValues: 50 * DIMENSIONS,
      vectorsFirst: false,
    });
    const request = { dimensions: DIMENSIONS, queryVector: unitVector(), limit: 5 };
    // store-a has 100 chunks: only its full text is copied.
    const large = await copies.of(await versionsOf(database.db, "store-a"), DIMENSIONS);
    expect(large!.nearest(request.queryVector, undefined, 5)).toBeNull();
    expect(large!.rankText(["chunk"], undefined, 5)).toHaveLength(5);
    // store-b has 50: both.
    expect(
      await nearest(copies, { ...request, datastores: await versionsOf(database.db, "store-b") }),
    ).toEqual(
      await sqlNearest(database.db, {
        ...request,
        datastores: await versionsOf(database.db, "store-b"),
      }),
    );
    // Together they are ranked as the larger one must be.
    const both = await copies.of(await versionsOf(database.db, "store-a", "store-b"), DIMENSIONS);
    expect(both!.nearest(request.queryVector, undefined, 5)).toBeNull();

    // With room for either side but not both, the full text goes first here, the vectors first
    // elsewhere.
    const heldBy = async (maxVectorValues: number) => {
      const roomy = createChunkCopies({
        db: database.db,
        maxBytes: 10 * 1024 * 1024,
        maxVectorValues,
        vectorsFirst: true,
      });
      await roomy.of(await versionsOf(database.db, "store-b"), DIMENSIONS);
      return roomy.heldBytes();
    };
    const [textOnly, bothSides] = [await heldBy(0), await heldBy(Infinity)];
    const vectorsOnly = 50 * (DIMENSIONS * 4 + 200);
    const roomFor = (vectorsFirst: boolean) =>
      createChunkCopies({
        db: database.db,
        maxBytes: Math.max(textOnly, vectorsOnly),
        maxVectorValues: Infinity,
        vectorsFirst,
      });
    expect(Math.max(textOnly, vectorsOnly)).toBeLessThan(bothSides);
    const textFirst = await roomFor(false).of(await versionsOf(database.db, "store-b"), DIMENSIONS);
    expect(textFirst!.nearest(request.queryVector, undefined, 5)).toBeNull();
    expect(textFirst!.rankText(["chunk"], undefined, 5)).toHaveLength(5);
    const vectorsFirst = await roomFor(true).of(
      await versionsOf(database.db, "store-b"),
      DIMENSIONS,
    );
    expect(vectorsFirst!.nearest(request.queryVector, undefined, 5)).toHaveLength(5);
    expect(vectorsFirst!.rankText(["chunk"], undefined, 5)).toBeNull();
  });

  test("gives the same hybrid results with vectors ranked by the database and text here", async ({
    database,
  }) => {
    const search = (exactCacheBytes: number, exactVectorMaxValues: number) =>
      searchOver(database, exactCacheBytes, { exactVectorMaxValues, vectorsFirst: false });
    for (let round = 0; round < 3; round += 1) {
      const request = {
        datastores: await versionsOf(database.db, "store-a", "store-b"),
        dimensions: DIMENSIONS,
        queryVector: unitVector(),
        queryText: "chunk store",
        topK: 8,
      };
      expect(await search(10 * 1024 * 1024, 0)(request)).toEqual(await search(0, 0)(request));
    }
  });

  test("shows passages as the database reads them, and a renamed datasource at the next query", async ({
    database,
  }) => {
    const queryVector = unitVector();
    const request = async () => ({
      datastores: await versionsOf(database.db, "store-a", "store-b"),
      dimensions: DIMENSIONS,
      queryVector,
      queryText: "chunk store",
      topK: 8,
    });
    const copied = searchOver(database, 10 * 1024 * 1024);
    const inDatabase = searchOver(database, 0);
    const before = await copied(await request());
    expect(before).toHaveLength(8);
    expect(before).toEqual(await inDatabase(await request()));

    const renamed = before[0]!.datasourceId;
    await database.db.execute(
      sql`update datasources set name = 'Renamed guide' where id = ${renamed}`,
    );
    try {
      const after = await copied(await request());
      const shown = after.filter((passage) => passage.datasourceId === renamed);
      expect(shown.length).toBeGreaterThan(0);
      for (const passage of shown) {
        expect(passage).toMatchObject({ datasourceName: "Renamed guide", source: "Renamed guide" });
      }
      expect(after).toEqual(await inDatabase(await request()));
    } finally {
      await database.db.execute(
        sql`update datasources set name = ${renamed} where id = ${renamed}`,
      );
    }
  });

  test("gives the hybrid search the same results as the database's own vector search", async ({
    database,
  }) => {
    // Without the in-app scorer: pgvector's distance operator on PGlite, SQL over real[] here
    // when PostgreSQL has no pgvector.
    const search = (exactCacheBytes: number) => searchOver(database, exactCacheBytes);
    for (let round = 0; round < 3; round += 1) {
      const request = {
        datastores: await versionsOf(database.db, "store-a", "store-b"),
        dimensions: DIMENSIONS,
        queryVector: unitVector(),
        queryText: "chunk",
        topK: 8,
        mode: "vector" as const,
      };
      expect(await search(10 * 1024 * 1024)(request)).toEqual(await search(0)(request));
    }
  });
});
