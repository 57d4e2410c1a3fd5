import PgBoss from "pg-boss";
import type { Database } from "../db/client.ts";
import type { Logger } from "../lib/logger.ts";
import {
  type JobData,
  type JobDefinition,
  type JobHandlers,
  type JobName,
  jobCatalog,
} from "./job-catalog.ts";

export type SendOptions = { startAfter?: Date | number; singletonKey?: string };

/** The fields of a job's data that hold strings (ids). */
export type StringField<Data> = {
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
  /** Starts consuming every queue of the catalog with the given handlers. */
  work(handlers: JobHandlers): Promise<void>;
  stop(options?: { graceful?: boolean; timeoutMs?: number }): Promise<void>;
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

/** Starts pg-boss on the application database and makes sure every queue exists. */
export async function startJobRuntime(database: Database, logger: Logger): Promise<JobRuntime> {
  const boss =
    database.kind === "pglite"
      ? new PgBoss({ db: database.jobExecutor as PgBoss.Db, schema: SCHEMA })
      : new PgBoss({ connectionString: database.connectionString, schema: SCHEMA, max: 4 });
  boss.on("error", (error) => logger.error({ err: error }, "job queue error"));
  await boss.start();
  for (const name of jobNames) {
    const definition = jobCatalog[name];
    await boss.createQueue(name, {
      name,
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      retryBackoff: definition.retryBackoff,
      expireInSeconds: definition.expireInSeconds,
    });
  }

  return {
    async send(name, data, options = {}) {
      const payload = jobCatalog[name].schema.parse(data) as object;
      return boss.send(name, payload, {
        ...(options.startAfter === undefined
          ? {}
          : { startAfter: toStartAfter(options.startAfter) }),
        ...(options.singletonKey === undefined ? {} : { singletonKey: options.singletonKey }),
      });
    },
    async deletePending(name, field, values) {
      if (values.length === 0) return 0;
      const result = await boss.getDb().executeSql(DELETE_PENDING_SQL, [name, field, [...values]]);
      return Number(result.rows[0]?.count ?? 0);
    },
    async work(handlers) {
      for (const name of jobNames) {
        const handler = handlers[name] as (data: unknown, meta: unknown) => Promise<void>;
        const { workers = 1, batchSize = 1 } = jobCatalog[name] as JobDefinition;
        const runJob = (job: PgBoss.Job<unknown>) =>
          handler(jobCatalog[name].schema.parse(job.data), {
            id: job.id,
            retryCount: retryCountOf(job),
          });
        for (let worker = 0; worker < workers; worker += 1) {
          await boss.work(name, { pollingIntervalSeconds: 0.5, batchSize }, async (jobs) => {
            if (jobs.length === 1) return runJob(jobs[0]!);
            // pg-boss completes a batch as a whole when this returns: a job that fails is failed
            // at once, so it retries on its own schedule instead of waiting for the others.
            await Promise.all(
              jobs.map((job) =>
                runJob(job).catch((error: unknown) =>
                  boss.fail(name, job.id, { message: String(error) }),
                ),
              ),
            );
          });
        }
      }
    },
    async stop({ graceful = true, timeoutMs = 10_000 } = {}) {
      await boss.stop({ graceful, timeout: timeoutMs, wait: true, close: true });
    },
  };
}

function toStartAfter(value: Date | number): Date | number {
  // pg-boss reads a number as seconds of delay; we speak milliseconds everywhere else.
  return typeof value === "number" ? Math.ceil(value / 1000) : value;
}

function retryCountOf(job: unknown): number {
  const count = (job as { retryCount?: unknown }).retryCount;
  return typeof count === "number" ? count : 0;
}
