import type { Logger } from "../lib/logger.ts";

/** What the leases need of pg-boss's connection. */
export type LeaseSql = {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
};

/** Thrown into (and aborting) a run whose job is no longer its own. */
export class JobLeaseLostError extends Error {
  override name = "JobLeaseLostError";
}

/** One run's hold on its job: aborted when the lease is lost, released when the run ends. */
type JobLease = { signal: AbortSignal; release(): void };

export type JobLeases = {
  /**
   * Holds a job that was just fetched (with the expiry it was fetched with); its lease is renewed
   * until `release`.
   */
  hold(name: string, jobId: string, expireInSeconds: number): JobLease;
  /** Renews every held lease now (after any renewal under way). */
  renewNow(): Promise<void>;
  stop(): void;
};

// pg-boss 10 has no heartbeat: it fails an active job once `started_on + expire_in` has passed
// (its maintenance, which we run every third of a lease; job-queue.ts). Renewing a lease moves
// that point: expire_in becomes the time the job has run so far plus one lease. Jobs are created
// with expire_in = one lease, so a run whose process dies is failed, and retried, about one lease
// after its last renewal. Rows that no longer match (failed, retried, deleted) are leases lost.
const RENEW_SQL = (schema: string) => `
  UPDATE ${schema}.job
  SET expire_in = (now() - started_on) + $3::integer * interval '1 second'
  WHERE name = ANY($1::text[]) AND id = ANY($2::uuid[]) AND state = 'active'
  RETURNING id`;

/**
 * Keeps the jobs this process is running reserved: one statement every third of a lease renews
 * all of them. A run whose job was taken from it (its process stalled past the lease, and the
 * job was failed and handed out again) has its signal aborted.
 */
export function createJobLeases(options: {
  sql: LeaseSql;
  schema: string;
  leaseSeconds: number;
  logger: Logger;
}): JobLeases {
  const { sql, leaseSeconds, logger } = options;
  const renewSql = RENEW_SQL(options.schema);
  const held = new Map<string, { name: string; controller: AbortController }>();
  let renewing: Promise<void> | null = null;
  let again = false;

  async function renewHeld() {
    const jobs = [...held.entries()];
    if (jobs.length === 0) return;
    try {
      const names = [...new Set(jobs.map(([, job]) => job.name))];
      const result = await sql.executeSql(renewSql, [names, jobs.map(([id]) => id), leaseSeconds]);
      const renewed = new Set((result.rows as { id: string }[]).map((row) => row.id));
      for (const [id, job] of jobs) {
        if (renewed.has(id) || !held.has(id)) continue;
        held.delete(id);
        logger.warn({ job: job.name, jobId: id }, "a running job lost its lease");
        job.controller.abort(new JobLeaseLostError(`Job ${id} of ${job.name} lost its lease`));
      }
    } catch (error) {
      // The next renewal tries again; a lease lasts three renewals.
      logger.warn({ err: error }, "could not renew the leases of running jobs");
    }
  }

  /** One renewal at a time; a request during one runs another right after it. */
  function renew(): Promise<void> {
    if (renewing) {
      again = true;
      return renewing;
    }
    renewing = (async () => {
      do {
        again = false;
        await renewHeld();
      } while (again);
      renewing = null;
    })();
    return renewing;
  }

  const timer = setInterval(() => void renew(), (leaseSeconds * 1000) / 3);
  timer.unref();

  return {
    hold(name, jobId, expireInSeconds) {
      const controller = new AbortController();
      held.set(jobId, { name, controller });
      // A retried job keeps the expiry its last run renewed it to, and one sent before the lease
      // was configured has the queue's old one: bring it to one lease at once.
      if (expireInSeconds > leaseSeconds) void renew();
      return {
        signal: controller.signal,
        release: () => {
          held.delete(jobId);
        },
      };
    },
    renewNow: renew,
    stop() {
      clearInterval(timer);
    },
  };
}
