import type { KnowledgeConfig } from "../../config/knowledge-config.ts";
import type { Database } from "../../db/client.ts";
import type { DocumentParser } from "../../ingestion/parser/document-parser.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Logger } from "../../lib/logger.ts";
import type { SafeFetcher } from "../../lib/safe-fetch.ts";
import type { ModelRegistry } from "../../models/model-registry.ts";
import type { Metrics } from "../../ops/metrics.ts";
import { createHybridSearch } from "../../retrieval/hybrid-search.ts";
import type { BillingService } from "../billing/billing-service.ts";
import { createChunkRepo } from "./chunk-repo.ts";
import { analyzeAfterWrites } from "./chunk-statistics.ts";
import { createChunkWriter } from "./chunk-writer.ts";
import { createDatasourceRepo } from "./datasource-repo.ts";
import { createDatasourceService } from "./datasource-service.ts";
import { createDatasourceSync } from "./datasource-sync.ts";
import { createDatasourceSyncRepo } from "./datasource-sync-repo.ts";
import { createDatastoreRepo } from "./datastore-repo.ts";
import { createDatastoreService } from "./datastore-service.ts";
import { createEmbedderResolver } from "./embedder-resolver.ts";
import { createEmbeddingCharger } from "./embedding-charges.ts";
import { createKnowledgeSearch } from "./knowledge-search.ts";
import { createSiteSync } from "./site-sync.ts";
import { createSyncScheduleRepo } from "./sync-schedule-repo.ts";
import { createSyncScheduler } from "./sync-scheduler.ts";
import { createUploadRepo } from "./upload-repo.ts";

// New chunks per insert transaction. PGlite: its one connection is held for milliseconds per row
// (the row's indexes, in WebAssembly; 5-10 ms while it also kept an HNSW index), so 8 rows keep
// an API read from waiting more than ~0.1 s behind ingestion. PostgreSQL serves reads on other connections: batches only bound the transaction.
const PGLITE_INSERT_BATCH_ROWS = 8;
const POSTGRES_INSERT_BATCH_ROWS = 500;

/**
 * Exact scoring costs one multiply-add per chunk and non-zero component of the query; an HNSW
 * walk on PostgreSQL grows far more slowly with the datastore. Up to this many stored components
 * (chunks × dimensions) a copy keeps the vectors and scores them exactly: about where the two
 * cross with dense query vectors (bench/exact-or-hnsw.ts; docs/knowledge.md, "Exact or HNSW"),
 * and far below it for the default embedder, whose questions set about 25 of 512 components.
 */
export const EXACT_VECTOR_MAX_VALUES_WITH_HNSW = 5_000_000;

export type KnowledgeModuleDeps = {
  database: Pick<Database, "db" | "hasPgvector" | "kind">;
  jobs: JobQueue;
  fetcher: Pick<SafeFetcher, "fetch" | "check">;
  parser: Pick<DocumentParser, "load" | "readHtml" | "split">;
  models: Pick<ModelRegistry, "resolveEmbeddingModel">;
  config: KnowledgeConfig;
  /** Where paid embedding usage is recorded, and the plan the stored-token limits are keyed by. */
  billing: Pick<BillingService, "charge" | "planOf">;
  logger: Logger;
  metrics: Pick<Metrics, "ingestion">;
};

/** Datastores, datasources, the ingestion job and the search agents use, over one database. */
export async function createKnowledgeModule(deps: KnowledgeModuleDeps) {
  const { db, hasPgvector } = deps.database;
  const { config } = deps;
  const datastoreRepo = createDatastoreRepo(db);
  const datasourceRepo = createDatasourceRepo(db);
  const syncRunRepo = createDatasourceSyncRepo(db);
  const chunkRepo = createChunkRepo(db);
  const uploadRepo = createUploadRepo(db);
  const scheduleRepo = createSyncScheduleRepo(db);
  const embedders = createEmbedderResolver({
    models: deps.models,
    embeddingsModel: config.embeddingsModel,
    embeddingsDimensions: config.embeddingsDimensions,
  });
  const nativeHnsw = hasPgvector && deps.database.kind === "postgres";
  // HNSW indexes only where PostgreSQL walks them natively. On the embedded database every chunk
  // insert also went into the graph in WebAssembly (more than half of an ingestion's time: the
  // 1,000 Markdown files of the benchmark took 95 s with it, 35 s without), while its
  // searches rank vectors in the application from copies and scan in SQL, exactly, beyond them.
  const ensureVectorIndex = async (dimensions: number) => {
    if (nativeHnsw) await chunkRepo.ensureVectorIndex(dimensions);
  };
  if (hasPgvector && !nativeHnsw) await chunkRepo.dropVectorIndexes();
  const chargeEmbedding = createEmbeddingCharger({ billing: deps.billing, logger: deps.logger });
  const search = createKnowledgeSearch({
    datastores: datastoreRepo,
    embedders,
    searchChunks: createHybridSearch({
      db,
      hasPgvector,
      hnswIndexes: nativeHnsw,
      exactCacheBytes: config.exactCacheBytes,
      // Vectors are scored in the application where that beats the database: always without
      // pgvector and on the embedded database, which keeps no HNSW index; on
      // PostgreSQL with pgvector up to the size where an HNSW walk gets cheaper, and after the
      // full text, which the database ranks more slowly there.
      exactVectorMaxValues: nativeHnsw
        ? EXACT_VECTOR_MAX_VALUES_WITH_HNSW
        : Number.POSITIVE_INFINITY,
      vectorsFirst: !nativeHnsw,
    }),
    chargeEmbedding,
  });
  const datasources = createDatasourceService({
    db,
    datastores: datastoreRepo,
    datasources: datasourceRepo,
    syncRuns: syncRunRepo,
    schedules: scheduleRepo,
    uploads: uploadRepo,
    jobs: deps.jobs,
    fetcher: deps.fetcher,
    uploadMaxBytes: config.uploadMaxBytes,
    logger: deps.logger,
  });
  const datastores = createDatastoreService({
    datastores: datastoreRepo,
    embedders,
    search,
    ensureVectorIndex,
    resyncDatastore: datasources.resyncDatastore,
    datasourceIdsOf: datasourceRepo.idsByDatastore,
    dropQueuedSyncs: datasources.dropQueuedSyncs,
  });
  const storeChunks = createChunkWriter({
    db,
    datasources: datasourceRepo,
    syncRuns: syncRunRepo,
    plans: deps.billing,
    chunks: chunkRepo,
    storedTokenLimits: config.storedTokenLimits,
    chargeEmbedding,
    insertBatchRows:
      deps.database.kind === "pglite" ? PGLITE_INSERT_BATCH_ROWS : POSTGRES_INSERT_BATCH_ROWS,
    parser: deps.parser,
  });
  const writeChunks =
    deps.database.kind === "pglite"
      ? analyzeAfterWrites(storeChunks, { db, logger: deps.logger })
      : storeChunks;
  const sync = createDatasourceSync({
    datastores: datastoreRepo,
    syncRuns: syncRunRepo,
    uploads: uploadRepo,
    embedders,
    writeChunks,
    syncSite: createSiteSync({
      datasources: datasourceRepo,
      syncRuns: syncRunRepo,
      writeChunks,
      pageLimit: config.webSitePageLimit,
    }),
    fetcher: deps.fetcher,
    parser: deps.parser,
    settings: config,
    logger: deps.logger,
    metrics: deps.metrics,
  });

  const scheduler = createSyncScheduler({
    schedules: scheduleRepo,
    syncRuns: syncRunRepo,
    queueSync: datasources.queueSync,
    logger: deps.logger,
  });

  // Every vector space in use gets its HNSW index, including one created before pgvector was.
  const dimensionsInUse = new Set([
    embedders.defaultChoice().dimensions,
    ...(await datastoreRepo.distinctDimensions()),
  ]);
  for (const dimensions of dimensionsInUse) await ensureVectorIndex(dimensions);

  return {
    datastores,
    datasources,
    /** The ingestion job handler: one run of a sync of one datasource generation. */
    runSync: sync.runSync,
    /** The handler of the ingestion job's dead letter: a sync whose every run died. */
    abandonSync: sync.abandonSync,
    /** The scheduled re-sync job's handler: queues the syncs whose scheduled time has come. */
    runScheduledSyncs: scheduler.runDue,
    /**
     * Retrieval for agents: `search({organizationId, datastoreIds, query, topK, filters})` →
     * passages (Passage) best first. Datastores of other organizations are ignored unless
     * public.
     */
    search: search.search,
    /** search in two steps, the datastores read with another part of the caller's statement. */
    open: search.open,
  };
}

export type KnowledgeModule = Awaited<ReturnType<typeof createKnowledgeModule>>;
