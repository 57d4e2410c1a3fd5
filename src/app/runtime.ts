import { resolve } from "node:path";
import { sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import { type Config, ConfigError } from "../config/index.ts";
import { type Database, openDatabase } from "../db/client.ts";
import type { Subscription } from "../db/notifications.ts";
import { startPgliteVacuum } from "../db/pglite-vacuum.ts";
import { SESSIONS_CHANGED_CHANNEL } from "../domain/accounts/session-service.ts";
import { AGENTS_CHANGED_CHANNEL } from "../domain/agents/agent-service.ts";
import { API_KEYS_CHANGED_CHANNEL } from "../domain/api-keys/api-key-service.ts";
import { CHANNELS_CHANGED_CHANNEL } from "../domain/channels/channel-service.ts";
import { LIVE_EVENTS_CHANNEL } from "../domain/events/event-module.ts";
import type { App } from "../http/app-types.ts";
import { createDocumentParser, type DocumentParser } from "../ingestion/parser/document-parser.ts";
import { type JobRuntime, startJobRuntime } from "../jobs/job-queue.ts";
import { describeConnectionFailure } from "../lib/connection-errors.ts";
import type { Logger } from "../lib/logger.ts";
import { createSafeFetcher, type SafeFetcher } from "../lib/safe-fetch.ts";
import { createSecretBox, loadOrCreateKeyFile, type SecretBox } from "../lib/secret-box.ts";
import { createModelTransport } from "../models/model-transport.ts";
import { logModelWarnings } from "../models/model-warnings.ts";
import { createMetrics, type Metrics } from "../ops/metrics.ts";
import { createReadinessCheck } from "../ops/readiness.ts";
import { buildApiServer } from "./api-server.ts";
import { createServices, type Services } from "./services.ts";
import { buildSiteServer } from "./site-server.ts";
import { buildWorkerServer } from "./worker-server.ts";

export type Role = "all" | "api" | "worker";

export type Runtime = {
  config: Config;
  logger: Logger;
  database: Database;
  jobs: JobRuntime;
  services: Services;
  /** Present for the api and all roles. */
  api: App | null;
  site: App | null;
  /** The worker role's listener (WORKER_PORT); in the all role the API listener serves it all. */
  worker: App | null;
  /** The process's one metrics registry, served at /metrics. */
  metrics: Metrics;
  close(): Promise<void>;
};

export type RuntimeOptions = {
  config: Config;
  logger: Logger;
  role: Role;
  /** Tests pass a database they created; otherwise it is opened from the config. */
  database?: Database;
  /** Benchmarks pass another document parser; otherwise threads as the config says. */
  parser?: DocumentParser;
};

const POSTGRES_PORT = 5432;
const REDIS_PORT = 6379;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;

/**
 * The database the configuration names: PostgreSQL with DATABASE_URL, else the embedded one in
 * DATA_DIR. One that cannot be reached stops boot with a ConfigError naming DATABASE_URL.
 */
export async function openConfiguredDatabase(
  config: Config,
  options: { poolSize?: number } = {},
): Promise<Database> {
  const url = config.database.databaseUrl;
  if (!url) {
    return openDatabase({
      kind: "pglite",
      dataDir: config.database.dataDir,
      sharedBuffersMb: config.database.pgliteSharedBuffersMb,
    });
  }
  try {
    return await openDatabase({ kind: "postgres", connectionString: url, ...options });
  } catch (error) {
    throw new ConfigError(`DATABASE_URL: ${describeConnectionFailure(error, url, POSTGRES_PORT)}`, {
      cause: error,
    });
  }
}

/**
 * What seals channel credentials: SECRETS_KEY, else (embedded database in DATA_DIR) a key
 * generated next to the data on first start; null with DATABASE_URL and no key, or with a
 * database given by the caller (tests), where creating a channel names SECRETS_KEY.
 */
async function secretBoxOf(config: Config, databaseGiven: boolean): Promise<SecretBox | null> {
  if (config.channels.secretsKey) return createSecretBox(config.channels.secretsKey);
  if (config.database.databaseUrl || databaseGiven) return null;
  return createSecretBox(
    await loadOrCreateKeyFile(resolve(config.database.dataDir, "secrets.key")),
  );
}

/** Connects to REDIS_URL at boot; one that cannot be reached stops boot, naming the variable. */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  // Imported here: without REDIS_URL the client is never needed, and loading it took 0.2 s of CPU.
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, {
    maxRetriesPerRequest: 2,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    lazyConnect: true,
  });
  let firstError: unknown = null;
  const atBoot = (error: unknown) => {
    firstError ??= error;
  };
  redis.on("error", atBoot);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new ConfigError(
      `REDIS_URL: ${describeConnectionFailure(firstError ?? error, url, REDIS_PORT)}`,
      { cause: error },
    );
  }
  redis.off("error", atBoot);
  // Later failures are logged; ioredis reconnects on its own.
  redis.on("error", (error) => logger.warn({ err: error }, "redis connection error"));
  return redis;
}

/** Builds every part of one process: database, job queue, services, listeners (not listening). */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config, logger, role } = options;
  logModelWarnings(logger);
  const metrics = createMetrics();
  // Redis only serves the API's and the site's rate limits, and their readiness reports it;
  // connected first, so a bad REDIS_URL stops boot early.
  const redis =
    config.database.redisUrl && role !== "worker"
      ? await connectRedis(config.database.redisUrl, logger)
      : null;
  const database = options.database ?? (await openConfiguredDatabase(config));
  if (!database.hasPgvector) {
    logger.warn(
      "pgvector is not installed: knowledge search scores vectors exactly, in the application " +
        "for datastores within KNOWLEDGE_EXACT_CACHE_MB and in SQL above it (degraded)",
    );
  }
  const fetcher: SafeFetcher = createSafeFetcher({
    allowPrivateNetworks: !config.server.production,
    allowedHosts: config.knowledge.fetchAllowedHosts,
    logger,
  });
  const modelTransport = createModelTransport();
  const parser = options.parser ?? createDocumentParser(config.knowledge.parser, logger);
  const vacuum = database.kind === "pglite" ? startPgliteVacuum(database.db, logger) : null;
  const jobs = await startJobRuntime(database, logger, {
    settings: config.jobs,
    soleProcess: database.soleProcess,
    runSchedules: role !== "api",
    metrics,
  });
  metrics.readQueueDepthsFrom(() => jobs.pendingCounts().catch(() => null));
  const services = await createServices({
    config,
    database,
    secretBox: await secretBoxOf(config, options.database !== undefined),
    jobs,
    fetcher,
    parser,
    modelFetch: modelTransport.fetch,
    logger,
    metrics,
  });
  await services.warmMailReader();
  if (role !== "api") {
    await jobs.work(services.jobHandlers);
    services.mailPoller.start();
  }

  // A database that does not answer makes the liveness check a 503, never a 500.
  const isHealthy = () =>
    database.db.execute(sql`select 1`).then(
      () => true,
      () => false,
    );
  const readiness = createReadinessCheck({ db: database.db, jobsRunning: jobs.isRunning, redis });
  let api: App | null = null;
  let site: App | null = null;
  const worker =
    role === "worker"
      ? await buildWorkerServer({
          logger,
          trustProxy: config.server.trustProxy,
          isHealthy,
          readiness,
          metrics,
          adminToken: config.server.adminToken ?? null,
        })
      : null;
  let changes: Subscription | null = null;
  if (role !== "worker") {
    // What the API keeps in memory, told of changes made by any process.
    changes = await database.listen({
      [API_KEYS_CHANGED_CHANNEL]: services.apiKeys.keyChanges,
      [SESSIONS_CHANGED_CHANNEL]: services.sessions.sessionChanges,
      [AGENTS_CHANGED_CHANNEL]: services.agents.agentChanges,
      [CHANNELS_CHANGED_CHANNEL]: services.channels.channelChanges,
      [LIVE_EVENTS_CHANNEL]: services.liveEvents.changes,
    });
    api = await buildApiServer(services, config, { logger, isHealthy, readiness, metrics, redis });
    site = await buildSiteServer({
      logger,
      trustProxy: config.server.trustProxy,
      isHealthy,
      readiness,
      metrics,
      leads: services.leads,
      rateLimitPerMinute: config.leads.rateLimitPerMinute,
      allowedOrigins: config.leads.allowedOrigins,
      redis,
    });
  }

  return {
    config,
    logger,
    database,
    jobs,
    services,
    api,
    site,
    worker,
    metrics,
    /** Stops accepting, drains in-flight requests, lets jobs finish, closes the database. */
    async close() {
      await Promise.all([api?.close(), site?.close(), worker?.close()]);
      await changes?.close();
      await services.mailPoller.stop();
      await services.mailReader.close();
      await jobs.stop({ graceful: true, timeoutMs: config.server.shutdownTimeoutMs });
      redis?.disconnect();
      await Promise.all([fetcher.close(), modelTransport.close(), parser.close(), vacuum?.stop()]);
      if (!options.database) await database.close();
    },
  };
}
