import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { test as base, describe, expect, inject } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { parseConfig } from "../../src/config/index.ts";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { startTcpProxy, type TcpProxy } from "../fakes/tcp-proxy.ts";
import { ADMIN_TOKEN, startTestApp } from "../harness/app.ts";
import { createTestDatabase, testDatabaseKind } from "../harness/database.ts";
import { TEST_TIMEOUT_MS } from "../harness/timeouts.ts";
import { eventually } from "../webhooks/webhook-helpers.ts";
import { sampleValue, scrape } from "./metrics-text.ts";

const ALL_OK = { status: "ok", checks: { database: "ok", migrations: "ok", jobs: "ok" } };

async function get(baseUrl: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

/**
 * A database the test can take away from the app: on PostgreSQL the app connects through a TCP
 * proxy whose connections are cut (and later restored); the embedded database is closed.
 */
async function cuttableDatabase(): Promise<{
  database: Database;
  cut(): Promise<void>;
  /** Null where the database cannot come back (a closed embedded database). */
  restore: (() => void) | null;
  close(): Promise<void>;
}> {
  const underlying = await createTestDatabase();
  if (testDatabaseKind === "pglite") {
    let closed = false;
    return {
      database: underlying,
      async cut() {
        closed = true;
        await underlying.close();
      },
      restore: null,
      async close() {
        if (!closed) await underlying.close();
      },
    };
  }
  const url = new URL(underlying.connectionString!);
  const proxy: TcpProxy = await startTcpProxy({
    host: url.hostname,
    port: Number(url.port || 5432),
  });
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  const database = await openDatabase({ kind: "postgres", connectionString: url.toString() });
  return {
    database,
    async cut() {
      proxy.cut();
    },
    restore: () => proxy.restore(),
    async close() {
      proxy.restore();
      await database.close();
      await proxy.close();
      await underlying.close();
    },
  };
}

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Each set up once per file, the first time a test asks for it:
 * - `cuttable`: a database the test can take away, and `listeners`: the URLs of an app on it;
 * - `redis`: the URLs of an app that reaches Redis through a proxy the test can cut;
 * - `worker`: a process of the worker role on a fresh database.
 */
const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("cuttable", { scope: "file" }, async ({}, { onCleanup }) => {
    const cuttable = await cuttableDatabase();
    onCleanup(() => cuttable.close());
    return cuttable;
  })
  .extend("listeners", { scope: "file" }, async ({ cuttable }, { onCleanup }) => {
    const app = await startTestApp({ database: cuttable.database });
    onCleanup(() => app.close());
    return { apiUrl: await app.listen("api"), siteUrl: await app.listen("site") };
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("redis", { scope: "file" }, async ({}, { onCleanup }) => {
    // The app reaches Redis through a proxy the test can cut, as a stopped Redis would be.
    const redis = new URL(redisUrl!);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    redis.hostname = "127.0.0.1";
    redis.port = String(proxy.port);
    const app = await startTestApp({ env: { REDIS_URL: redis.toString() } });
    onCleanup(async () => {
      await app.close();
      await proxy.close();
    });
    return { proxy, apiUrl: await app.listen("api"), siteUrl: await app.listen("site") };
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("worker", { scope: "file" }, async ({}, { onCleanup }) => {
    const database = await createTestDatabase();
    const worker = await startWorker(database);
    onCleanup(async () => {
      await worker.runtime.close();
      await database.close();
    });
    return worker;
  });

describe("GET /api/health/ready on the API and site listeners", () => {
  test("200 with every check ok, on both listeners; /api/health stays the liveness", async ({
    listeners: { apiUrl, siteUrl },
  }) => {
    for (const url of [apiUrl, siteUrl]) {
      expect(await get(url, "/api/health/ready")).toEqual({ status: 200, body: ALL_OK });
      expect(await get(url, "/api/health")).toEqual({ status: 200, body: { status: "ok" } });
    }
  });

  test("ignores a query string and credentials; another method is 404", async ({
    listeners: { apiUrl, siteUrl },
  }) => {
    const checked = await get(apiUrl, "/api/health/ready?database=down&checks[]=x", {
      headers: { authorization: "Bearer not-a-key" },
    });
    expect(checked).toEqual({ status: 200, body: ALL_OK });
    const posted = await get(apiUrl, "/api/health/ready", { method: "POST", body: "{}" });
    expect(posted.status).toBe(404);
    expect(posted.body).toMatchObject({ type: "NOT_FOUND" });
    const sitePosted = await get(siteUrl, "/api/health/ready", { method: "DELETE" });
    expect(sitePosted.status).toBe(404);
    expect(sitePosted.body).toMatchObject({ code: "not_found" });
  });

  test("503 naming the database while it is cut (and 200 again once it is back)", async ({
    cuttable,
    listeners: { apiUrl, siteUrl },
  }) => {
    await cuttable.cut();
    const down = {
      status: 503,
      body: { status: "unavailable", checks: { database: "down", migrations: "ok", jobs: "ok" } },
    };
    expect(await get(apiUrl, "/api/health/ready")).toEqual(down);
    expect(await get(siteUrl, "/api/health/ready")).toEqual(down);
    // The liveness check answers too, never with a 500.
    expect((await get(apiUrl, "/api/health")).status).toBe(503);
    // Metrics are still served, without the queue depth the database would have given.
    const scraped = await scrape(apiUrl, ADMIN_TOKEN);
    expect(scraped.status).toBe(200);
    expect(scraped.samples.some((sample) => sample.name === "agentdesk_job_queue_depth")).toBe(
      false,
    );
    expect(sampleValue(scraped.samples, "process_cpu_seconds_total")).toBeGreaterThan(0);
    if (!cuttable.restore) return;
    cuttable.restore();
    await eventually(async () => {
      expect(await get(apiUrl, "/api/health/ready")).toEqual({ status: 200, body: ALL_OK });
    });
  });
});

describe("readiness of a database without the latest migration", () => {
  test("503 naming the migrations", async () => {
    const database = await createTestDatabase();
    await database.db.execute(
      sql`delete from drizzle.__drizzle_migrations
          where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
    const app = await startTestApp({ database });
    try {
      expect(await get(await app.listen("api"), "/api/health/ready")).toEqual({
        status: 503,
        body: { status: "unavailable", checks: { database: "ok", migrations: "down", jobs: "ok" } },
      });
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe.skipIf(!redisUrl)("readiness with REDIS_URL", () => {
  const withRedis = (redis: "ok" | "down") => ({
    status: redis === "ok" ? 200 : 503,
    body: {
      status: redis === "ok" ? "ok" : "unavailable",
      checks: { ...ALL_OK.checks, redis },
    },
  });

  test("200 with redis ok on both listeners while Redis answers", async ({
    redis: { apiUrl, siteUrl },
  }) => {
    expect(await get(apiUrl, "/api/health/ready")).toEqual(withRedis("ok"));
    expect(await get(siteUrl, "/api/health/ready")).toEqual(withRedis("ok"));
  });

  test("503 naming redis while Redis is down, within the probe's bound, and 200 once it is back", async ({
    redis: { proxy, apiUrl, siteUrl },
  }) => {
    proxy.cut();
    const started = Date.now();
    expect(await get(apiUrl, "/api/health/ready")).toEqual(withRedis("down"));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await get(siteUrl, "/api/health/ready")).toEqual(withRedis("down"));
    // Liveness is the database's alone: a Redis outage is not a reason to restart the process.
    expect(await get(apiUrl, "/api/health")).toEqual({ status: 200, body: { status: "ok" } });
    proxy.restore();
    await eventually(async () => {
      expect(await get(apiUrl, "/api/health/ready")).toEqual(withRedis("ok"));
    });
  });
});

/** A process of the worker role on `database`, its listener on an ephemeral port. */
async function startWorker(database: Database, env: Record<string, string> = {}) {
  const runtime: Runtime = await createRuntime({
    config: parseConfig({
      NODE_ENV: "test",
      ADMIN_TOKEN,
      LOG_LEVEL: "silent",
      BOOTSTRAP_DEFAULT_ORG: "false",
      ...env,
    }),
    logger: pino({ level: "silent" }),
    role: "worker",
    database,
  });
  const worker = runtime.worker!;
  await worker.listen({ host: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(worker.server.address() as AddressInfo).port}`;
  return { runtime, url };
}

describe("the worker role's listener", () => {
  test("has no API or site listener, and answers liveness and readiness", async ({ worker }) => {
    expect(worker.runtime.api).toBeNull();
    expect(worker.runtime.site).toBeNull();
    expect(await get(worker.url, "/api/health")).toEqual({ status: 200, body: { status: "ok" } });
    expect(await get(worker.url, "/api/health/ready")).toEqual({ status: 200, body: ALL_OK });
  });

  test("serves /metrics to the admin token: the jobs it runs and the process", async ({
    worker,
  }) => {
    const sent = await worker.runtime.jobs.send("knowledge.ingest.abandoned", {
      organizationId: "no-such-organization",
      datasourceId: "no-such-datasource",
      generation: 1,
    });
    expect(sent).not.toBeNull();
    const { status, samples } = await eventually(async () => {
      const scraped = await scrape(worker.url, ADMIN_TOKEN);
      expect(
        sampleValue(scraped.samples, "agentdesk_jobs_total", {
          queue: "knowledge.ingest.abandoned",
          outcome: "completed",
        }),
      ).toBe(1);
      return scraped;
    });
    expect(status).toBe(200);
    expect(sampleValue(samples, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(samples.some((sample) => sample.name === "agentdesk_job_queue_depth")).toBe(true);
    // The abandoned sync of a datasource that does not exist ended nothing.
    expect(sampleValue(samples, "agentdesk_ingestions_total", { outcome: "abandoned" })).toBe(0);
    // This scrape is counted once it ended: the next one shows it.
    const next = await scrape(worker.url, ADMIN_TOKEN);
    const routes = next.samples
      .filter((sample) => sample.name === "http_request_duration_seconds_count")
      .map((sample) => sample.labels.route);
    expect(routes).toContain("/metrics");
  });

  test("401 for a wrong token or none; unknown paths are 404", async ({ worker }) => {
    expect((await scrape(worker.url, "wrong-token")).status).toBe(401);
    expect((await scrape(worker.url, null)).status).toBe(401);
    const unknown = await get(worker.url, "/api/agents");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ type: "NOT_FOUND" });
  });

  test("503 naming the jobs once its job queue stopped", async ({ worker }) => {
    await worker.runtime.jobs.stop({ graceful: false, timeoutMs: 0 });
    expect(await get(worker.url, "/api/health/ready")).toEqual({
      status: 503,
      body: { status: "unavailable", checks: { database: "ok", migrations: "ok", jobs: "down" } },
    });
  });
});

describe("the worker role without ADMIN_TOKEN", () => {
  test("has no /metrics (404), and still its health checks", async () => {
    const database = await createTestDatabase();
    const worker = await startWorker(database, { ADMIN_TOKEN: "" });
    try {
      expect((await scrape(worker.url, ADMIN_TOKEN)).status).toBe(404);
      expect((await get(worker.url, "/api/health/ready")).status).toBe(200);
    } finally {
      await worker.runtime.close();
      await database.close();
    }
  });
});

// The command line's own path to the listener; one database kind is enough, as in test/cli.
describe.skipIf(testDatabaseKind !== "pglite")("agentdesk serve --role worker", () => {
  test("listens on WORKER_PORT, prints its URL, and stops on SIGTERM", {
    timeout: 3 * TEST_TIMEOUT_MS,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "agentdesk-worker-"));
    // The run's migrated snapshot, so the process skips initdb (test/cli/cli.test.ts).
    mkdirSync(join(dataDir, "pglite"));
    execFileSync("tar", ["-xf", inject("pgliteSnapshot"), "-C", join(dataDir, "pglite")], {
      stdio: "ignore",
    });
    const child = spawn(process.execPath, ["bin/agentdesk.js", "serve", "--role", "worker"], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        WORKER_PORT: "0",
        ADMIN_TOKEN,
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = once(child, "exit");
    let output = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /health and metrics: (http:\/\/\S+)\)/.exec(output);
          if (match) resolve(match[1]!);
        });
        void exited.then(() => reject(new Error(`exited before its banner:\n${output}`)));
      });
      expect(output).not.toContain("dashboard API");
      expect(await get(url, "/api/health/ready")).toEqual({ status: 200, body: ALL_OK });
      const scraped = await scrape(url, ADMIN_TOKEN);
      expect(scraped.status).toBe(200);
      expect(scraped.families.map((family) => family.name)).toContain("agentdesk_jobs_total");
      child.kill("SIGTERM");
      const [code] = await exited;
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
