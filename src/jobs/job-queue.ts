import PgBoss from "pg-boss";
import type { JobsConfig } from "../config/jobs-config.ts";
import type { Database, Db } from "../db/client.ts";
import { transactionExecutor } from "../db/transaction-executor.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../ops/metrics.ts";
import {
  type JobData,
  type JobDefinition,
  type JobHandlers,
  type JobName,
  jobCatalog,
} from "./job-catalog.ts";
import { createJobLeases, type JobLeases } from "./job-leases.ts";
import { type JobWorkers, PROCESS_STOPPED, startJobWorkers } from "./job-workers.ts";

type SendOptions = {
  startAfter?: Date | number;
  singletonKey?: string;
  /** Queue the job in this transaction: it exists exactly when the transaction commits. */
  tx?: Db;
};

/** The fields of a job's data that hold strings (ids). */
type StringField<Data> = {
  [Key in keyof Data]: Data[Key] extends string ? Key : never;
}[keyof Data] &
  string;

/** The typed producer side: what routes and services use to enqueue work. */
export type JobQueue = {
  send<Name extends JobName>(
    name: Name,
    data: JobData<Name>,
    options?: SendOptions,
  ): Promise<string | null>;
  /**
   * Deletes the jobs of a queue that have not started (queued, or waiting for a retry) whose
   * `field` is one of `values`, and returns how many; a job a worker already took is left alone.
   */
  deletePending<Name extends JobName>(
    name: Name,
    field: StringField<JobData<Name>>,
    values: readonly string[],
  ): Promise<number>;
};

export type JobRuntime = JobQueue & {
  /**
   * Starts consuming every queue of the catalog with the given handlers, and sweeping: every
   * third of a lease, jobs whose lease ran out (their process died) are failed, so retried.
   */
  work(handlers: JobHandlers): Promise<void>;
  stop(options?: { graceful?: boolean; timeoutMs?: number }): Promise<void>;
  /** Started and not stopped: what readiness reports as `jobs`. */
  isRunning(): boolean;
  /** Jobs waiting to run (queued or waiting for a retry) by queue, every queue of the catalog. */
  pendingCounts(): Promise<Map<string, number>>;
};

export type JobRuntimeOptions = {
  settings?: JobsConfig;
  /**
   * No other process can be using this database (PGlite in a locked DATA_DIR): every job still
   * active at start was left by a process that died, and is failed (so retried) at once.
   */
  soleProcess?: boolean;
  /**
   * This process sends the jobs of the catalog that have a `schedule` when they are due (any
   * number of processes may: pg-boss sends each due job once). Off for API-only processes.
   */
  runSchedules?: boolean;
  /** Told of every job run that ended, with its queue, outcome and duration. */
  metrics?: Pick<Metrics, "job">;
};

const jobNames = Object.keys(jobCatalog) as JobName[];
const SCHEMA = "pgboss";

// pg-boss 10 deletes or cancels jobs by id only, in any state, so a job a worker fetched between
// a lookup and the delete would vanish mid-run. One statement on its job table instead: its
// job_state enum is ordered created < retry < active < ..., and a worker's fetch locks the row, so
// a job being taken is either still pending here or already active and skipped.
const DELETE_PENDING_SQL = `
  WITH deleted AS (
    DELETE FROM ${SCHEMA}.job
    WHERE name = $1 AND state < 'active' AND data ->> $2 = ANY($3::text[])
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM deleted`;

// Walks pg-boss's partial index of jobs not yet active (job_i5), not the completed ones.
const PENDING_JOBS_SQL = `
  SELECT name, count(*)::int AS count FROM ${SCHEMA}.job WHERE state < 'active' GROUP BY name`;

const ACTIVE_JOBS_SQL = `SELECT name, id FROM ${SCHEMA}.job WHERE state = 'active'`;

const DEFAULT_SETTINGS: JobsConfig = { leaseSeconds: 30 };

const BOSS_OPTIONS = {
  schema: SCHEMA,
  // Where schedules run, pg-boss moves due jobs from its own cron queue into the catalog's,
  // polled every 30 s rather than every 5 s: a scheduled job may start up to that late, and an
  // idle process spends a statement every 30 s instead of every 5 s.
  cronWorkerIntervalSeconds: 30,
};

/** The jobs pg-boss sends on a cron schedule. */
const scheduledJobs = jobNames.flatMap((name) => {
  const cron = (jobCatalog[name] as JobDefinition).schedule;
  return cron ? [{ name, cron }] : [];
});

/**
 * Starts pg-boss on the application database and makes every queue of the catalog match it
 * (pg-boss's createQueue leaves an existing queue as it was, so a queue whose settings differ
 * from the catalog's is updated; one that matches is left alone).
 */
export async function startJobRuntime(
  database: Database,
  logger: Logger,
  options: JobRuntimeOptions = {},
): Promise<JobRuntime> {
  const { leaseSeconds } = options.settings ?? DEFAULT_SETTINGS;
  // Only where schedules run: pg-boss's timekeeper creates its cron queue, reads the clock at
  // start, then polls that queue and checks the schedules every 30 s.
  const runSchedules = Boolean(options.runSchedules) && scheduledJobs.length > 0;
  const bossOptions = { ...BOSS_OPTIONS, schedule: runSchedules };
  const boss =
    database.kind === "pglite"
      ? new PgBoss({ db: database.jobExecutor as PgBoss.Db, ...bossOptions })
      : new PgBoss({ connectionString: database.connectionString, max: 4, ...bossOptions });
  boss.on("error", (error) => logger.error({ err: error }, "job queue error"));
  await boss.start();
  // One read instead of a create and an update per queue at every start (10 statements).
  const stored = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
  // Dead-letter queues first: a queue's dead letter must exist when it is named.
  const ordered = [...jobNames].sort((a, b) => Number(isDeadLetter(b)) - Number(isDeadLetter(a)));
  for (const name of ordered) {
    const definition = jobCatalog[name] as JobDefinition;
    const queue = {
      name,
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      retryBackoff: definition.retryBackoff,
      expireInSeconds: leaseSeconds,
      ...(definition.deadLetter ? { deadLetter: definition.deadLetter } : {}),
    };
    const current = stored.get(name);
    if (!current) await boss.createQueue(name, queue);
    else if (!queueMatches(current, queue)) await boss.updateQueue(name, queue);
  }
  if (options.soleProcess) await failOrphans(boss, logger);
  if (runSchedules) {
    for (const { name, cron } of scheduledJobs) await boss.schedule(name, cron, {}, { tz: "UTC" });
  }

  const leases: JobLeases = createJobLeases({
    sql: boss.getDb(),
    schema: SCHEMA,
    leaseSeconds,
    logger,
  });
  let workers: JobWorkers | null = null;
  let sweeper: NodeJS.Timeout | null = null;
  let running = true;

  return {
    async send(name, data, options = {}) {
      const payload = jobCatalog[name].schema.parse(data) as object;
      const id = await boss.send(name, payload, {
        ...(options.startAfter === undefined
          ? {}
          : { startAfter: toStartAfter(options.startAfter) }),
        ...(options.singletonKey === undefined ? {} : { singletonKey: options.singletonKey }),
        ...(options.tx ? { db: transactionExecutor(options.tx) as PgBoss.Db } : {}),
      });
      // A job queued in a transaction is not there yet: the idle loops' poll finds it.
      if (id !== null && options.startAfter === undefined && !options.tx) workers?.wake(name);
      return id;
    },
    async deletePending(name, field, values) {
      if (values.length === 0) return 0;
      const result = await boss.getDb().executeSql(DELETE_PENDING_SQL, [name, field, [...values]]);
      return Number(result.rows[0]?.count ?? 0);
    },
    async work(handlers) {
      workers = startJobWorkers({
        boss,
        schema: SCHEMA,
        leases,
        handlers,
        logger,
        ...(options.metrics ? { metrics: options.metrics } : {}),
      });
      // The sweep renews this process's own leases first, so a stall of its event loop (a long
      // synchronous statement on PGlite) never expires the jobs it is still running.
      let sweeping = false;
      sweeper = setInterval(
        async () => {
          if (sweeping) return;
          sweeping = true;
          try {
            await leases.renewNow();
            await boss.expire();
          } catch (error) {
            logger.error({ err: error }, "job queue error");
          } finally {
            sweeping = false;
          }
        },
        (leaseSeconds * 1000) / 3,
      );
      sweeper.unref();
    },
    async stop({ graceful = true, timeoutMs = 10_000 } = {}) {
      running = false;
      if (sweeper) clearInterval(sweeper);
      await workers?.stop({ graceful, timeoutMs });
      leases.stop();
      await boss.stop({ graceful: false, wait: true, close: true });
    },
    isRunning: () => running,
    async pendingCounts() {
      const { rows } = await boss.getDb().executeSql(PENDING_JOBS_SQL, []);
      const counts = new Map<string, number>(jobNames.map((name) => [name, 0]));
      for (const { name, count } of rows as { name: string; count: number }[]) {
        counts.set(name, Number(count));
      }
      return counts;
    },
  };
}

/**
 * Whether a stored queue already has the settings pg-boss's updateQueue would write: the given
 * ones, and the standard policy it writes when none is given.
 */
function queueMatches(stored: PgBoss.QueueResult, wanted: PgBoss.Queue): boolean {
  return (
    stored.policy === "standard" &&
    stored.retryLimit === wanted.retryLimit &&
    stored.retryDelay === wanted.retryDelay &&
    stored.retryBackoff === wanted.retryBackoff &&
    stored.expireInSeconds === wanted.expireInSeconds &&
    (wanted.deadLetter === undefined || stored.deadLetter === wanted.deadLetter)
  );
}

function isDeadLetter(name: JobName): boolean {
  return jobNames.some((other) => (jobCatalog[other] as JobDefinition).deadLetter === name);
}

/** Fails (so retries) every active job: only for a database no other process can be using. */
async function failOrphans(boss: PgBoss, logger: Logger): Promise<void> {
  const { rows } = await boss.getDb().executeSql(ACTIVE_JOBS_SQL, []);
  for (const { name, id } of rows as { name: string; id: string }[]) {
    await boss.fail(name, id, { message: PROCESS_STOPPED });
  }
  if (rows.length > 0) {
    logger.warn({ jobs: rows.length }, "retrying the jobs a stopped process left running");
  }
}

function toStartAfter(value: Date | number): Date | number {
  // pg-boss reads a number as seconds of delay; we speak milliseconds everywhere else.
  return typeof value === "number" ? Math.ceil(value / 1000) : value;
}
