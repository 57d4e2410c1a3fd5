import { sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { Db } from "../db/client.ts";
import { createMigrationCheck } from "../db/migration-status.ts";

/** `unknown`: not checked, because what it needs (the database) is down. */
type CheckState = "ok" | "down" | "unknown";

export type Readiness = {
  ready: boolean;
  checks: {
    database: CheckState;
    migrations: CheckState;
    jobs: CheckState;
    /** Only where the process uses Redis (REDIS_URL, API and site listeners). */
    redis?: CheckState;
  };
};

/** A load balancer waits a few seconds at most; a dependency that hangs counts as down. */
const DATABASE_CHECK_TIMEOUT_MS = 2_000;

/** Resolves with what `check` gives, or with `false` once `timeoutMs` passed or it failed. */
async function within(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([check().catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/health/ready's checks: the database answers `select 1`, it has recorded the latest
 * migration this build ships, this process's job queue is started and not stopped, and Redis,
 * where the process uses it, answers PING (its rate limits cannot count without it). Once seen
 * applied, the migrations are not read again (a database does not lose them), so a check costs
 * one `select 1` afterwards, and one PING.
 */
export function createReadinessCheck(deps: {
  db: Db;
  jobsRunning: () => boolean;
  /** The process's Redis connection (REDIS_URL); null where it has none. */
  redis: Pick<Redis, "ping"> | null;
  timeoutMs?: number;
}): () => Promise<Readiness> {
  const timeoutMs = deps.timeoutMs ?? DATABASE_CHECK_TIMEOUT_MS;
  const migrationsApplied = createMigrationCheck(deps.db);
  let migrationsSeen = false;
  const { redis } = deps;
  const redisAnswers = redis
    ? () => within(async () => (await redis.ping()) === "PONG", timeoutMs)
    : null;
  return async () => {
    const [database, redisUp] = await Promise.all([
      within(async () => {
        await deps.db.execute(sql`select 1`);
        return true;
      }, timeoutMs),
      redisAnswers?.(),
    ]);
    if (database && !migrationsSeen) migrationsSeen = await within(migrationsApplied, timeoutMs);
    const checks: Readiness["checks"] = {
      database: database ? "ok" : "down",
      migrations: migrationsSeen ? "ok" : database ? "down" : "unknown",
      jobs: deps.jobsRunning() ? "ok" : "down",
      ...(redisUp === undefined ? {} : { redis: redisUp ? ("ok" as const) : ("down" as const) }),
    };
    return { ready: Object.values(checks).every((state) => state === "ok"), checks };
  };
}
