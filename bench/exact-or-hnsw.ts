import { sql } from "drizzle-orm";
import { pino } from "pino";
import { createRuntime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import { type Database, rowsOf } from "../src/db/client.ts";
import { datasources } from "../src/db/schema/index.ts";
import { createChunkRepo } from "../src/domain/knowledge/chunk-repo.ts";
import { contentHash } from "../src/lib/content-hash.ts";
import { newId } from "../src/lib/ids.ts";
import { createHybridSearch } from "../src/retrieval/hybrid-search.ts";
import { encodeEmbedding } from "../src/retrieval/vector-encoding.ts";
import { benchDatabases } from "./lib/databases.ts";
import { formatTable } from "./lib/load.ts";
import { randomSource } from "./lib/random.ts";

/**
 * npm run bench -- exact-or-hnsw [--sizes=1000,2000,5000,10000,20000,50000]
 *   [--dimensions=512,1536] [--queries=200]
 * Where exact scoring in the application stops beating an HNSW walk on PostgreSQL with pgvector:
 * vector-only searches (topK 10) over one datastore of N chunks with dense random unit vectors
 * (every component non-zero: the worst case for exact scoring, which skips a query's zero
 * components), through the hybrid search both ways. The threshold the service uses
 * (EXACT_VECTOR_MAX_VALUES_WITH_HNSW, in chunks × dimensions) comes from this table.
 */
const WARM_UP = 10;

export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: string) =>
    args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
  const sizes = option("sizes", "1000,2000,5000,10000,20000,50000").split(",").map(Number);
  const dimensionsList = option("dimensions", "512,1536").split(",").map(Number);
  const queryCount = Number(option("queries", "200"));

  for await (const bench of benchDatabases()) {
    if (bench.database.kind !== "postgres" || !bench.database.hasPgvector) {
      await bench.dispose();
      continue;
    }
    const runtime = await createRuntime({
      config: parseConfig({ LOG_LEVEL: "silent", BOOTSTRAP_DEFAULT_ORG: "false" }),
      logger: pino({ level: "silent" }),
      role: "api",
      database: bench.database,
    });
    try {
      const { organization } = await runtime.services.organizations.createOrganization({
        name: "bench",
      });
      const rows: Array<Record<string, string | number>> = [];
      for (const dimensions of dimensionsList) {
        for (const size of sizes) {
          rows.push(await measure(bench.database, organization.id, dimensions, size, queryCount));
          process.stdout.write(`${formatTable(rows.slice(-1))}\n`);
        }
      }
      process.stdout.write(`\n${formatTable(rows)}\n`);
    } finally {
      await runtime.close();
      await bench.dispose();
    }
  }
}

async function measure(
  database: Database,
  organizationId: string,
  dimensions: number,
  size: number,
  queryCount: number,
) {
  const random = randomSource(dimensions * 1_000_003 + size);
  const unitVector = () => {
    const values = Array.from({ length: dimensions }, () => random() - 0.5);
    const norm = Math.hypot(...values);
    return values.map((value) => value / norm);
  };
  const datastoreId = newId();
  await database.db.execute(sql`
    insert into datastores (id, organization_id, name, embedder_id, dimensions)
    values (${datastoreId}, ${organizationId}, ${`bench-${dimensions}-${size}`}, 'bench:random', ${dimensions})`);
  const datasourceId = newId();
  await database.db.insert(datasources).values({
    id: datasourceId,
    organizationId,
    datastoreId,
    type: "text",
    name: "random vectors",
    status: "synched",
  });
  const repo = createChunkRepo(database.db);
  await database.db.execute(
    sql.raw(`drop index if exists knowledge_chunks_embedding_${dimensions}_idx`),
  );
  for (let start = 0; start < size; start += 1_000) {
    const count = Math.min(1_000, size - start);
    await repo.insertMany(
      Array.from({ length: count }, (_, index) => {
        const text = `chunk ${start + index}`;
        return {
          id: newId(),
          organizationId,
          datastoreId,
          datasourceId,
          position: start + index,
          text,
          startOffset: 0,
          endOffset: text.length,
          tokenCount: 2,
          contentHash: contentHash(text),
          dimensions,
          embedding: encodeEmbedding(unitVector()),
        };
      }),
    );
  }
  await database.db.execute(sql`set maintenance_work_mem = '512MB'`);
  await repo.ensureVectorIndex(dimensions);
  await database.db.execute(sql`analyze knowledge_chunks`);
  const [store] = rowsOf<{ version: string | number }>(
    await database.db.execute(
      sql`select knowledge_version as version from datastores where id = ${datastoreId}`,
    ),
  );
  const datastores = [{ id: datastoreId, knowledgeVersion: Number(store!.version) }];
  const search = (exactCacheBytes: number) =>
    createHybridSearch({
      db: database.db,
      hasPgvector: true,
      hnswIndexes: true,
      exactCacheBytes,
      exactVectorMaxValues: Number.POSITIVE_INFINITY,
      vectorsFirst: true,
    });
  const inSql = search(0);
  const inApplication = search(4 * 1024 ** 3);
  const queries = Array.from({ length: queryCount }, unitVector);
  const time = async (ranker: ReturnType<typeof search>) => {
    const times: number[] = [];
    for (const [index, queryVector] of [...queries.slice(0, WARM_UP), ...queries].entries()) {
      const started = performance.now();
      await ranker({
        datastores,
        dimensions,
        queryVector,
        queryText: "",
        topK: 10,
        mode: "vector",
      });
      if (index >= WARM_UP) times.push(performance.now() - started);
    }
    times.sort((left, right) => left - right);
    return times[Math.floor(times.length / 2)]!;
  };
  const hnsw = await time(inSql);
  const exact = await time(inApplication);
  await database.db.execute(sql`delete from datastores where id = ${datastoreId}`);
  return {
    dimensions,
    chunks: size,
    "chunks × dimensions": size * dimensions,
    "HNSW p50 ms": hnsw.toFixed(2),
    "exact p50 ms": exact.toFixed(2),
    faster: exact <= hnsw ? "exact" : "HNSW",
  };
}
