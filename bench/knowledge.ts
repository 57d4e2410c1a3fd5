import { sql } from "drizzle-orm";
import { pino } from "pino";
import { createRuntime, type Runtime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import { type Database, rowsOf } from "../src/db/client.ts";
import { datasources } from "../src/db/schema/index.ts";
import type { Caller } from "../src/domain/caller.ts";
import { createChunkRepo } from "../src/domain/knowledge/chunk-repo.ts";
import {
  EXACT_VECTOR_MAX_VALUES_WITH_HNSW,
  type KnowledgeModule,
} from "../src/domain/knowledge/knowledge-module.ts";
import { createLocalEmbedder } from "../src/ingestion/embedders/local-embedder.ts";
import { contentHash } from "../src/lib/content-hash.ts";
import { newId } from "../src/lib/ids.ts";
import { encodeEmbedding } from "../src/retrieval/vector-encoding.ts";
import { benchDatabases } from "./lib/databases.ts";
import { corpusQuestions, markdownDocument, passages, pdfDocument } from "./lib/knowledge-data.ts";
import { formatTable } from "./lib/load.ts";

/**
 * npm run bench -- knowledge [--sizes=10000,100000] [--files=1000] [--queries=200]
 *   [--recall-queries=50] [--postgres-only] [--pglite-only] [--skip-ingestion]
 *   [--exact-cache-mb=256]
 * Ingestion throughput (a 5 MB PDF, 1,000 Markdown files) through the ingestion job's code path,
 * then query latency (hybrid and vector-only, through the knowledge search) and recall@10 of the
 * HNSW index against exact search, at each corpus size, on PGlite and on PostgreSQL. Vectors are
 * scored as the service scores them: by HNSW on PostgreSQL with pgvector, exactly in the
 * application elsewhere; `--exact-cache-mb=0` (KNOWLEDGE_EXACT_CACHE_MB) measures PGlite's HNSW.
 */
const MB = 1024 * 1024;
const WARM_UP = 5;
const EXACT_QUERIES = 10;

export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: string) =>
    args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
  const sizes = option("sizes", "10000,100000").split(",").map(Number);
  const files = Number(option("files", "1000"));
  const queryCount = Number(option("queries", "200"));
  const recallQueries = Number(option("recall-queries", "50"));
  const postgresOnly = args.includes("--postgres-only");
  const pgliteOnly = args.includes("--pglite-only");
  const skipIngestion = args.includes("--skip-ingestion");
  const exactCacheMb = option("exact-cache-mb", "256");

  for await (const bench of benchDatabases()) {
    if ((postgresOnly && bench.label === "pglite") || (pgliteOnly && bench.label !== "pglite")) {
      await bench.dispose();
      continue;
    }
    const runtime = await createRuntime({
      config: parseConfig({
        LOG_LEVEL: "silent",
        BOOTSTRAP_DEFAULT_ORG: "false",
        KNOWLEDGE_PLAN_LIMITS: "",
        KNOWLEDGE_EXACT_CACHE_MB: exactCacheMb,
      }),
      logger: pino({ level: "silent" }),
      role: "api",
      database: bench.database,
    });
    try {
      // Only PostgreSQL with pgvector keeps HNSW indexes: above the exact threshold, or always
      // without copies. PGlite ranks exactly (copies, or a scan in SQL without them).
      const nativeHnsw = bench.database.hasPgvector && bench.database.kind === "postgres";
      const walksHnsw = (chunks: number) =>
        nativeHnsw && (exactCacheMb === "0" || chunks * 512 > EXACT_VECTOR_MAX_VALUES_WITH_HNSW);
      process.stdout.write(`\n## ${bench.label}\n\n`);
      const { organization, user, apiKeyId } =
        await runtime.services.organizations.createOrganization({ name: "bench", plan: "bench" });
      const context: Caller = {
        organizationId: organization.id,
        userId: user.id,
        apiKeyId,
        agentIds: null,
        actor: { type: "key", id: apiKeyId },
        requestId: "bench",
      };
      if (!skipIngestion) {
        process.stdout.write(`${formatTable(await ingestionRows(runtime, context, files))}\n\n`);
      }
      await queryRows(runtime, context, {
        sizes,
        queryCount,
        recallQueries,
        nativeHnsw,
        walksHnsw,
      });
    } finally {
      await runtime.close();
      await bench.dispose();
    }
  }
}

/** Stores the upload as the API does, then runs the ingestion job's code directly (no queue polling). */
async function ingestFile(
  knowledge: KnowledgeModule,
  database: Database,
  context: Caller,
  datastoreId: string,
  file: { bytes: Buffer; mime: string; name: string },
): Promise<number> {
  const created = await knowledge.datasources.createFile(context, {
    datastoreId,
    file: { bytes: file.bytes, declaredMime: file.mime, fileName: file.name },
  });
  const [row] = await database.db
    .select({ generation: datasources.syncGeneration })
    .from(datasources)
    .where(sql`${datasources.id} = ${created.id}`);
  await knowledge.runSync({ ...context, datasourceId: created.id, generation: row!.generation });
  const [synced] = await database.db
    .select({
      status: datasources.status,
      chunks: datasources.chunkCount,
      error: datasources.errorMessage,
    })
    .from(datasources)
    .where(sql`${datasources.id} = ${created.id}`);
  if (synced!.status !== "synched")
    throw new Error(`${file.name}: ${synced!.status} ${synced!.error}`);
  return synced!.chunks;
}

async function ingestionRows(runtime: Runtime, context: Caller, fileCount: number) {
  const { knowledge } = runtime.services;
  const store = await knowledge.datastores.create(context, { name: "ingestion" });
  const rows: Array<Record<string, string | number>> = [];

  const pdf = pdfDocument(5 * MB, 1);
  let started = performance.now();
  const pdfChunks = await ingestFile(knowledge, runtime.database, context, store.id, {
    bytes: pdf,
    mime: "application/pdf",
    name: "big.pdf",
  });
  rows.push(
    throughputRow("5 MB PDF (1 file)", pdf.byteLength, pdfChunks, performance.now() - started),
  );

  const documents = Array.from({ length: fileCount }, (_, index) =>
    Buffer.from(markdownDocument(index, 3_000 + (index % 7) * 1_000, 2)),
  );
  let chunks = 0;
  started = performance.now();
  for (const [index, bytes] of documents.entries()) {
    chunks += await ingestFile(knowledge, runtime.database, context, store.id, {
      bytes,
      mime: "text/markdown",
      name: `doc-${index}.md`,
    });
  }
  const bytes = documents.reduce((sum, document) => sum + document.byteLength, 0);
  rows.push(
    throughputRow(`${fileCount} Markdown files`, bytes, chunks, performance.now() - started),
  );
  await knowledge.datastores.delete(context, store.id);
  return rows;
}

function throughputRow(what: string, bytes: number, chunks: number, elapsedMs: number) {
  const seconds = elapsedMs / 1000;
  return {
    ingestion: what,
    MB: (bytes / MB).toFixed(2),
    chunks,
    seconds: seconds.toFixed(1),
    "MB/s": (bytes / MB / seconds).toFixed(2),
    "chunks/s": Math.round(chunks / seconds),
  };
}

/** Adds synthetic chunks (recombined corpus prose, embedded by the local embedder) to a datastore. */
async function addChunks(
  database: Database,
  context: Caller,
  datastoreId: string,
  from: number,
  to: number,
) {
  const embedder = createLocalEmbedder();
  const repo = createChunkRepo(database.db);
  const perDatasource = 1_000;
  for (let start = from; start < to; start += perDatasource) {
    const datasourceId = newId();
    await database.db.insert(datasources).values({
      id: datasourceId,
      organizationId: context.organizationId,
      datastoreId,
      type: "text",
      name: `synthetic-${start}`,
      status: "synched",
      customId: `tenant-${(start / perDatasource) % 10}`,
    });
    const texts = passages(Math.min(perDatasource, to - start), 6, start + 1);
    const { vectors } = await embedder.embed(texts);
    await repo.insertMany(
      texts.map((text, index) => ({
        id: newId(),
        organizationId: context.organizationId,
        datastoreId,
        datasourceId,
        customId: `tenant-${(start / perDatasource) % 10}`,
        position: index,
        text,
        startOffset: 0,
        endOffset: text.length,
        tokenCount: Math.ceil(text.length / 4),
        contentHash: contentHash(text),
        dimensions: 512,
        embedding: encodeEmbedding(vectors[index]!),
      })),
    );
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timeQueries(run: (question: string) => Promise<unknown>, questions: string[]) {
  for (const question of questions.slice(0, WARM_UP)) await run(question);
  const times: number[] = [];
  for (const question of questions) {
    const started = performance.now();
    await run(question);
    times.push(performance.now() - started);
  }
  times.sort((left, right) => left - right);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function exactTopTen(
  database: Database,
  datastoreId: string,
  question: string,
): Promise<string[]> {
  const [vector] = (await createLocalEmbedder().embed([question])).vectors;
  // "+ 0" keeps the planner from answering the ORDER BY with the HNSW index: this is exact.
  const result = await database.db.execute(
    sql`select id from knowledge_chunks where datastore_id = ${datastoreId} and dimensions = 512
        order by (embedding::vector(512) <=> ${`[${encodeEmbedding(vector!).join(",")}]`}::vector(512)) + 0, id limit 10`,
  );
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

async function queryRows(
  runtime: Runtime,
  context: Caller,
  options: {
    sizes: number[];
    queryCount: number;
    recallQueries: number;
    nativeHnsw: boolean;
    walksHnsw: (chunks: number) => boolean;
  },
) {
  const { sizes, queryCount } = options;
  const { knowledge } = runtime.services;
  const { database } = runtime;
  const store = await knowledge.datastores.create(context, { name: "queries" });
  // Exact scoring in SQL reads every chunk's vector: a few questions show its latency.
  const scoresInSql = !options.nativeHnsw && runtime.config.knowledge.exactCacheBytes === 0;
  const count = scoresInSql ? Math.min(queryCount, EXACT_QUERIES) : queryCount;
  const questions = [...corpusQuestions(), ...passages(count, 1, 99)].slice(0, count);
  let loaded = 0;
  for (const size of sizes) {
    let started = performance.now();
    if (options.nativeHnsw) {
      // Bulk loads build the graph once, which is much faster than growing it row by row.
      await database.db.execute(sql`drop index if exists knowledge_chunks_embedding_512_idx`);
    }
    await addChunks(database, context, store.id, loaded, size);
    loaded = size;
    const loadSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    if (options.nativeHnsw) {
      await database.db.execute(sql`set maintenance_work_mem = '512MB'`);
      await createChunkRepo(database.db).ensureVectorIndex(512);
    }
    await database.db.execute(sql`analyze knowledge_chunks`);
    const indexSeconds = (performance.now() - started) / 1000;

    const search = (mode: "hybrid" | "vector" | "text") => (question: string) =>
      knowledge.search({ ...context, datastoreIds: [store.id], query: question, topK: 10, mode });
    const hybrid = await timeQueries(search("hybrid"), questions);
    const vector = await timeQueries(search("vector"), questions);
    const text = await timeQueries(search("text"), questions);
    const filtered = await timeQueries(
      (question) =>
        knowledge.search({
          ...context,
          datastoreIds: [store.id],
          query: question,
          topK: 10,
          filters: { customIds: ["tenant-3"] },
        }),
      questions,
    );

    let recall = "exact (1.000)";
    if (options.walksHnsw(size)) {
      let overlap = 0;
      const sample = questions.slice(0, options.recallQueries);
      for (const question of sample) {
        const approximate = new Set((await search("vector")(question)).map((hit) => hit.chunkId));
        const exact = await exactTopTen(database, store.id, question);
        overlap += exact.filter((id) => approximate.has(id)).length / exact.length;
      }
      recall = `${(overlap / sample.length).toFixed(3)} (${sample.length} queries)`;
    }
    // One table per size, printed as soon as it is measured (a 100k run takes a while).
    const row = {
      chunks: size,
      queries: questions.length,
      "load s": loadSeconds.toFixed(1),
      "index s": indexSeconds.toFixed(1),
      "hybrid p50/p99 ms": `${hybrid.p50.toFixed(1)} / ${hybrid.p99.toFixed(1)}`,
      "vector p50/p99 ms": `${vector.p50.toFixed(1)} / ${vector.p99.toFixed(1)}`,
      "text p50/p99 ms": `${text.p50.toFixed(1)} / ${text.p99.toFixed(1)}`,
      "hybrid+filter p50/p99 ms": `${filtered.p50.toFixed(1)} / ${filtered.p99.toFixed(1)}`,
      vectors: options.walksHnsw(size)
        ? "HNSW"
        : runtime.config.knowledge.exactCacheBytes === 0
          ? "exact (SQL)"
          : "exact (application)",
      "recall@10 (vs exact)": recall,
    };
    process.stdout.write(`${formatTable([row])}\n\n`);
  }
}
