import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import type PgBoss from "pg-boss";
import { inBackground } from "../db/background-work.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../ops/metrics.ts";
import { type JobDefinition, type JobHandlers, type JobName, jobCatalog } from "./job-catalog.ts";
import { JobLeaseLostError, type JobLeases } from "./job-leases.ts";

/** A run that passed its job's `timeoutSeconds`; the job is failed and retried. */
class JobTimeoutError extends Error {
  override name = "JobTimeoutError";
}

/** Runs still going when a shutdown's drain time ran out; their jobs are failed and retried. */
class JobShutdownError extends Error {
  override name = "JobShutdownError";
}

export type JobWorkers = {
  /** Jobs of this queue are ready now (sent by this process): its idle loops fetch at once. */
  wake(name: JobName): void;
  /** Stops fetching; waits up to `timeoutMs` for running jobs (none when not graceful). */
  stop(options: { graceful: boolean; timeoutMs: number }): Promise<void>;
};

type Outcome = { ok: true } | { ok: false; error: unknown };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Why a job failed whose process a restart found gone (job-queue.ts, on the embedded database). */
export const PROCESS_STOPPED = "The process running this job stopped";
/** pg-boss's own reason for a job its maintenance failed once its lease ran out. */
const LEASE_EXPIRED = "job failed by timeout in active state";
/** The runs of one job that may end with their process before it is given up. */
const MAX_PROCESS_DEATHS = 2;
/** Where a job keeps, in its own data, how many of its runs ended with their process. */
const DEATHS_KEY = "processDeaths";

const RECORD_DEATHS_SQL = (schema: string) => `
  UPDATE ${schema}.job SET data = jsonb_set(coalesce(data, '{}'::jsonb), '{${DEATHS_KEY}}', to_jsonb($2::integer))
  WHERE id = $1 AND state = 'active'`;
// pg-boss fails a job for good, and hands it to its dead letter, once its retries are spent.
const SPEND_RETRIES_SQL = (schema: string) => `
  UPDATE ${schema}.job SET retry_limit = retry_count WHERE id = $1 AND state = 'active'`;

/** The failure pg-boss recorded of the job's previous run, if any. */
function previousFailure(output: unknown): string | undefined {
  const recorded = output as { message?: unknown; value?: { message?: unknown } } | null;
  const message = recorded?.message ?? recorded?.value?.message;
  return typeof message === "string" ? message : undefined;
}

/**
 * How many runs of this job ended with their process, this fetch's previous run included: it
 * died if the job was failed by its lease running out or by a restart that found it running.
 */
function processDeathsOf(job: PgBoss.JobWithMetadata<unknown>): number {
  const recorded = Number((job.data as Record<string, unknown> | null)?.[DEATHS_KEY] ?? 0);
  const failure = previousFailure(job.output);
  const died = failure === LEASE_EXPIRED || failure === PROCESS_STOPPED;
  return (Number.isInteger(recorded) ? recorded : 0) + (died ? 1 : 0);
}

const POLLING_INTERVAL_MS = 500;

/** Which of the given queues have a job ready to run (sent by any process, or due for a retry). */
const READY_QUEUES_SQL = (schema: string) => `
  SELECT queue.name FROM unnest($1::text[]) AS queue(name)
  WHERE EXISTS (
    SELECT 1 FROM ${schema}.job
    WHERE job.name = queue.name AND job.state < 'active' AND job.start_after < now()
  )`;

/**
 * The consuming side of the job queue, over pg-boss's `fetch`, `complete` and `fail`: per queue
 * of the catalog, `workers` loops each fetching up to `batchSize` jobs and running them side by
 * side. pg-boss's own `work()` fails a run that outlives the job's expiry, which is one lease
 * here; these loops hold each job with a renewed lease instead and stop a run only at its job's
 * `timeoutSeconds`. A fetch that found jobs fetches again at once; a loop whose fetch came back
 * empty waits until its queue has work: a job sent by this process wakes it at once, and one
 * statement every half second asks which queues of the idle loops have jobs ready (sent by
 * another process, or due for a retry). Ten loops polling on their own cost twenty statements
 * a second on an idle service, a few percent of a core on the embedded database.
 */
export function startJobWorkers(options: {
  boss: PgBoss;
  schema: string;
  leases: JobLeases;
  handlers: JobHandlers;
  logger: Logger;
  metrics?: Pick<Metrics, "job">;
}): JobWorkers {
  const { boss, leases, logger } = options;
  const shutdown = new AbortController();
  // Every running job listens to it until its run ends: dozens at once is the design, not a leak.
  setMaxListeners(0, shutdown.signal);
  let stopping = false;
  const idle = new AbortController();
  const readyQueuesSql = READY_QUEUES_SQL(options.schema);
  const recordDeathsSql = RECORD_DEATHS_SQL(options.schema);
  const spendRetriesSql = SPEND_RETRIES_SQL(options.schema);

  /** The loops waiting for work, by queue. */
  const waiting = new Map<JobName, (() => void)[]>();
  const wake = (name: JobName) => {
    const loops = waiting.get(name);
    if (!loops) return;
    waiting.delete(name);
    for (const resume of loops) resume();
  };
  const workArrives = (name: JobName) =>
    new Promise<void>((resume) => {
      waiting.set(name, [...(waiting.get(name) ?? []), resume]);
    });

  async function probe() {
    while (!stopping) {
      await sleep(POLLING_INTERVAL_MS, undefined, { signal: idle.signal }).catch(() => {});
      if (stopping || waiting.size === 0) continue;
      try {
        const { rows } = await boss.getDb().executeSql(readyQueuesSql, [[...waiting.keys()]]);
        for (const { name } of rows as { name: JobName }[]) wake(name);
      } catch (error) {
        logger.error({ err: error }, "job queue error");
      }
    }
  }

  async function runJob(
    name: JobName,
    definition: JobDefinition,
    job: PgBoss.JobWithMetadata<unknown>,
  ): Promise<Outcome | null> {
    const handler = options.handlers[name] as (data: unknown, meta: unknown) => Promise<void>;
    const lease = leases.hold(name, job.id, job.expireInSeconds);
    const run = new AbortController();
    const timer = setTimeout(
      () =>
        run.abort(new JobTimeoutError(`${name} ran longer than ${definition.timeoutSeconds} s`)),
      definition.timeoutSeconds * 1000,
    );
    const stop = (event: Event) => run.abort((event.target as AbortSignal).reason);
    lease.signal.addEventListener("abort", stop, { once: true });
    shutdown.signal.addEventListener("abort", stop, { once: true });
    const abandoned = new Promise<never>((_, reject) => {
      run.signal.addEventListener("abort", () => reject(run.signal.reason), { once: true });
    });
    try {
      await Promise.race([
        handler(definition.schema.parse(job.data), {
          id: job.id,
          retryCount: job.retryCount,
          signal: run.signal,
        }),
        abandoned,
      ]);
      return { ok: true };
    } catch (error) {
      // Another run holds the job now: neither completing nor failing it is ours to do.
      if (error instanceof JobLeaseLostError) return null;
      if (!(error instanceof JobShutdownError)) {
        logger.warn({ err: error, job: name, jobId: job.id }, "job failed");
      }
      return { ok: false, error };
    } finally {
      clearTimeout(timer);
      shutdown.signal.removeEventListener("abort", stop);
      lease.release();
    }
  }

  /**
   * A job whose runs keep ending with their process (a poison job: say, an input that exhausts
   * the process) would otherwise take down every process that picks it up, once per retry. Its
   * deaths are counted in its data; at the second it is failed for good (its dead letter, if it
   * has one, then makes the failure final in the domain) instead of being run again.
   */
  async function survivesDeaths(name: JobName, job: PgBoss.JobWithMetadata<unknown>) {
    const deaths = processDeathsOf(job);
    if (deaths === 0) return true;
    const db = boss.getDb();
    if (deaths < MAX_PROCESS_DEATHS) {
      await db.executeSql(recordDeathsSql, [job.id, deaths]);
      return true;
    }
    logger.error({ job: name, jobId: job.id, deaths }, "a job ended its process twice; given up");
    await db.executeSql(spendRetriesSql, [job.id]);
    await boss.fail(name, job.id, {
      message: `Given up: ${deaths} runs of this job ended with their process`,
    });
    options.metrics?.job(name, "failed", 0);
    return false;
  }

  /** Each job of a batch is completed or failed as soon as it ends, so it retries on its own. */
  async function runBatch(name: JobName, jobs: PgBoss.JobWithMetadata<unknown>[]) {
    const definition = jobCatalog[name] as JobDefinition;
    await Promise.all(
      jobs.map(async (job) => {
        try {
          if (!(await survivesDeaths(name, job))) return;
        } catch (error) {
          // The job stays active until its lease runs out; then it is fetched again.
          logger.error({ err: error, job: name, jobId: job.id }, "job queue error");
          return;
        }
        const started = performance.now();
        const outcome = await runJob(name, definition, job);
        if (outcome === null) return;
        const seconds = (performance.now() - started) / 1000;
        options.metrics?.job(name, outcome.ok ? "completed" : "failed", seconds);
        try {
          if (outcome.ok) await boss.complete(name, job.id);
          else await boss.fail(name, job.id, { message: messageOf(outcome.error) });
        } catch (error) {
          // The job stays active until its lease runs out; then it is retried.
          logger.error({ err: error, job: name, jobId: job.id }, "job queue error");
        }
      }),
    );
  }

  async function loop(name: JobName, batchSize: number) {
    while (!stopping) {
      let jobs: PgBoss.JobWithMetadata<unknown>[] = [];
      try {
        jobs = await boss.fetch(name, { batchSize, includeMetadata: true });
        if (jobs.length > 0) await runBatch(name, jobs);
      } catch (error) {
        logger.error({ err: error, job: name }, "job queue error");
      }
      if (jobs.length === 0 && !stopping) await workArrives(name);
    }
  }

  // Jobs, and the loops that fetch them, are background work: requests go first.
  const loops: Promise<void>[] = [inBackground(probe)];
  for (const name of Object.keys(jobCatalog) as JobName[]) {
    const { workers = 1, batchSize = 1 } = jobCatalog[name] as JobDefinition;
    for (let worker = 0; worker < workers; worker += 1) {
      loops.push(inBackground(() => loop(name, batchSize)));
    }
  }

  return {
    wake,
    async stop({ graceful, timeoutMs }) {
      stopping = true;
      idle.abort();
      for (const name of [...waiting.keys()]) wake(name);
      const drained = Promise.all(loops);
      if (graceful) {
        let timer: NodeJS.Timeout | undefined;
        const waited = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        });
        await Promise.race([drained, waited]);
        clearTimeout(timer);
      }
      shutdown.abort(new JobShutdownError("The process is shutting down"));
      await drained;
    },
  };
}
