import { sql } from "drizzle-orm";
import { pino } from "pino";
import { test as base, describe, expect } from "vitest";
import { type Database, rowsOf } from "../../src/db/client.ts";
import type { JobHandlers, JobMeta } from "../../src/jobs/job-catalog.ts";
import { type JobRuntime, startJobRuntime } from "../../src/jobs/job-queue.ts";
import { createTestDatabase } from "../harness/database.ts";

const LEASE_SECONDS = 2;
const silent = pino({ level: "silent" });

/**
 * - `database`: a fresh database, once per file;
 * - `runtimes`: the job runtimes a test started, stopped after it.
 */
const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("database", { scope: "file" }, async ({}, { onCleanup }) => {
    const database = await createTestDatabase();
    onCleanup(() => database.close());
    return database;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("runtimes", async ({}, { onCleanup }) => {
    const runtimes: JobRuntime[] = [];
    onCleanup(async () => {
      for (const runtime of runtimes.splice(0)) await runtime.stop({ graceful: false });
    });
    return runtimes;
  });

async function start(
  database: Database,
  runtimes: JobRuntime[],
  options: { leaseSeconds?: number; soleProcess?: boolean } = {},
) {
  const runtime = await startJobRuntime(database, silent, {
    settings: { leaseSeconds: options.leaseSeconds ?? LEASE_SECONDS },
    soleProcess: options.soleProcess ?? false,
  });
  runtimes.push(runtime);
  return runtime;
}

type IngestHandler = (data: { datasourceId: string }, meta: JobMeta) => Promise<void>;

/** Handlers for the ingestion queue only; every other queue's jobs are ignored. */
function ingestOnly(handler: IngestHandler): JobHandlers {
  const ignore = async () => {};
  return new Proxy({ "knowledge.ingest": handler } as Record<string, unknown>, {
    get: (target, name) => target[name as string] ?? ignore,
  }) as unknown as JobHandlers;
}

async function jobRow(database: Database, datasourceId: string) {
  const result = await database.db.execute(
    sql`select state::text as state, retry_count as "retryCount", output from pgboss.job
        where name = 'knowledge.ingest' and data->>'datasourceId' = ${datasourceId}`,
  );
  return rowsOf<{ state: string; retryCount: number; output: unknown }>(result)[0] ?? null;
}

/** What a process that fetched the job and then died leaves: an active job nobody renews. */
async function orphan(database: Database, runtime: JobRuntime, datasourceId: string) {
  const id = await runtime.send("knowledge.ingest", {
    organizationId: "org",
    datasourceId,
    generation: 1,
  });
  await database.db.execute(
    sql`update pgboss.job set state = 'active', started_on = now() where id = ${id}::uuid`,
  );
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("job leases", () => {
  test("retries a job whose process died once its lease runs out, not after its timeout", async ({
    database,
    runtimes,
  }) => {
    const producer = await start(database, runtimes);
    await orphan(database, producer, "orphaned");
    const runs: number[] = [];
    const started = Date.now();
    await producer.work(
      ingestOnly(async (_data, meta) => {
        runs.push(meta.retryCount);
      }),
    );
    const row = await until(
      () => jobRow(database, "orphaned"),
      (current) => current?.state === "completed",
      20_000,
    );
    // Lease (2 s) + a sweep (a third of it) + the retry delay (5 s), far below the 1 h timeout.
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(runs).toEqual([1]);
    expect(row?.retryCount).toBe(1);
  });

  test("keeps a run that outlives its lease, since its process renews it", async ({
    database,
    runtimes,
  }) => {
    const runtime = await start(database, runtimes);
    await runtime.send("knowledge.ingest", {
      organizationId: "org",
      datasourceId: "long",
      generation: 1,
    });
    const runs: number[] = [];
    await runtime.work(
      ingestOnly(async (_data, meta) => {
        runs.push(meta.retryCount);
        await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_SECONDS * 1000));
        expect(meta.signal.aborted).toBe(false);
      }),
    );
    const row = await until(
      () => jobRow(database, "long"),
      (current) => current?.state === "completed",
      20_000,
    );
    expect(runs).toEqual([0]);
    expect(row?.retryCount).toBe(0);
  });

  test("aborts a run whose job was taken from it", async ({ database, runtimes }) => {
    const runtime = await start(database, runtimes);
    await runtime.send("knowledge.ingest", {
      organizationId: "org",
      datasourceId: "taken",
      generation: 1,
    });
    let signal: AbortSignal | null = null;
    await runtime.work(
      ingestOnly(async (_data, meta) => {
        signal = meta.signal;
        await new Promise((resolve) => meta.signal.addEventListener("abort", resolve));
      }),
    );
    await until(
      () => jobRow(database, "taken"),
      (current) => current?.state === "active",
      10_000,
    );
    // As if the sweep of another process had failed it: the next renewal finds it gone.
    await database.db.execute(
      sql`update pgboss.job set state = 'failed' where data->>'datasourceId' = 'taken'`,
    );
    await until(
      async () => signal?.aborted ?? false,
      (aborted) => aborted,
      LEASE_SECONDS * 1000 * 2,
    );
    expect((await jobRow(database, "taken"))?.state).toBe("failed");
  });

  test("retries at start what a dead process left running when no other process can exist", async ({
    database,
    runtimes,
  }) => {
    const first = await start(database, runtimes, { leaseSeconds: 600 });
    await orphan(database, first, "left-running");
    await first.stop({ graceful: false });
    runtimes.splice(runtimes.indexOf(first), 1);

    const restarted = await start(database, runtimes, { leaseSeconds: 600, soleProcess: true });
    expect(await jobRow(database, "left-running")).toMatchObject({ state: "retry" });
    const runs: number[] = [];
    await restarted.work(
      ingestOnly(async (_data, meta) => {
        runs.push(meta.retryCount);
      }),
    );
    await until(
      () => jobRow(database, "left-running"),
      (current) => current?.state === "completed",
      15_000,
    );
    expect(runs).toEqual([1]);
  });

  test("gives a job that failed for good to its dead letter queue", async ({
    database,
    runtimes,
  }) => {
    const runtime = await start(database, runtimes);
    await runtime.send("knowledge.ingest", {
      organizationId: "org",
      datasourceId: "doomed",
      generation: 1,
    });
    await database.db.execute(
      sql`update pgboss.job set retry_count = retry_limit where data->>'datasourceId' = 'doomed'`,
    );
    const abandoned: string[] = [];
    const handlers = new Proxy(
      {
        "knowledge.ingest": async () => {
          throw new Error("the run failed");
        },
        "knowledge.ingest.abandoned": async ({ datasourceId }: { datasourceId: string }) => {
          abandoned.push(datasourceId);
        },
      } as Record<string, unknown>,
      { get: (target, name) => target[name as string] ?? (async () => {}) },
    ) as unknown as JobHandlers;
    await runtime.work(handlers);
    await until(
      async () => abandoned,
      (names) => names.length > 0,
      10_000,
    );
    expect(abandoned).toEqual(["doomed"]);
    expect((await jobRow(database, "doomed"))?.state).toBe("failed");
  });
});
