import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { type Database, rowsOf } from "../../src/db/client.ts";
import type { JobHandlers } from "../../src/jobs/job-catalog.ts";
import type { JobRuntime } from "../../src/jobs/job-queue.ts";
import { jobTest } from "../harness/fixtures.ts";

const test = jobTest();

async function stateOf(database: Database, datasourceId: string): Promise<string | null> {
  const result = await database.db.execute(
    sql`select state::text as state from pgboss.job
        where name = 'knowledge.ingest' and data->>'datasourceId' = ${datasourceId}`,
  );
  return rowsOf<{ state: string }>(result)[0]?.state ?? null;
}

async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ingest = (jobs: JobRuntime, datasourceId: string) =>
  jobs.send("knowledge.ingest", { organizationId: "org", datasourceId, generation: 1 });

describe("JobQueue.deletePending", () => {
  test("deletes queued and retry-waiting jobs of the given ids, never a running one", async ({
    database,
    jobs,
  }) => {
    let release = () => {};
    const running = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handlers = {
      "knowledge.ingest": async ({ datasourceId }: { datasourceId: string }) => {
        if (datasourceId === "failing") throw new Error("worker trouble");
        if (datasourceId === "running") await running;
      },
    };
    const ignore = async () => {};
    await ingest(jobs, "failing");
    await ingest(jobs, "running");
    await jobs.work(
      new Proxy(handlers, {
        get: (target, name) => target[name as keyof typeof target] ?? ignore,
      }) as unknown as JobHandlers,
    );
    await until(
      async () =>
        (await stateOf(database, "failing")) === "retry" &&
        (await stateOf(database, "running")) === "active",
      "one job waiting for a retry and one running",
    );
    // Delayed, so the polling worker cannot take them before the delete.
    await jobs.send(
      "knowledge.ingest",
      { organizationId: "org", datasourceId: "queued", generation: 1 },
      { startAfter: 60_000 },
    );
    await jobs.send(
      "knowledge.ingest",
      { organizationId: "org", datasourceId: "kept", generation: 1 },
      { startAfter: 60_000 },
    );

    const deleted = await jobs.deletePending("knowledge.ingest", "datasourceId", [
      "failing",
      "running",
      "queued",
    ]);
    expect(deleted).toBe(2);
    expect(await stateOf(database, "failing")).toBeNull();
    expect(await stateOf(database, "queued")).toBeNull();
    expect(await stateOf(database, "running")).toBe("active");
    expect(await stateOf(database, "kept")).toBe("created");
    expect(await jobs.deletePending("knowledge.ingest", "datasourceId", [])).toBe(0);

    release();
    await until(
      async () => (await stateOf(database, "running")) === "completed",
      "the running job to end",
    );
  });
});
