import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { type FakeWebSite, startFakeWebSite } from "../fakes/web-site.ts";
import type { TestOrganization } from "../harness/app.ts";
import { createTestDatabase, testDatabaseKind } from "../harness/database.ts";
import { type ServiceProcess, startServiceProcess } from "../harness/service-process.ts";

// A sync whose runs keep ending with their process (here: the process is killed with SIGKILL
// while the run waits on a page that never answers, as an out-of-memory kill would end it) is
// run twice, then given up: the datasource ends in error and no third run starts. PGlite: the same
// DATA_DIR is started again (its start fails the orphaned job at once). PostgreSQL: the next
// process finds the job once its lease (2 s here) has run out.
const JOB_LEASE_SECONDS = 2;
const INGEST_RETRY_DELAY_MS = 5_000;
const SLOW_TEST_MS = 150_000;

type Datasource = { id: string; status: string; errorMessage: string | null };

let dataDir: string | null = null;
let database: Database | null = null;
let env: Record<string, string>;
let site: FakeWebSite;
const processes: ServiceProcess[] = [];

async function spawnService(): Promise<ServiceProcess> {
  const service = await startServiceProcess(env);
  processes.push(service);
  return service;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  site = await startFakeWebSite({ "/never-answers": { hang: true } });
  const storage: Record<string, string> = {};
  if (testDatabaseKind === "pglite") {
    dataDir = mkdtempSync(join(tmpdir(), "agentdesk-poison-"));
    storage.DATA_DIR = dataDir;
  } else {
    database = await createTestDatabase();
    storage.DATABASE_URL = database.connectionString!;
  }
  env = {
    ...storage,
    JOB_LEASE_SECONDS: String(JOB_LEASE_SECONDS),
    KNOWLEDGE_PLAN_LIMITS: "",
    KNOWLEDGE_FETCH_TIMEOUT_MS: "120000",
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(processes.map((service) => service.kill()));
  await site.close();
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a job whose runs end with their process", () => {
  test(
    "is run twice, then failed for good with its datasource in error, never a third time",
    async () => {
      let service = await spawnService();
      const org: TestOrganization = await service.createOrganization("Poison");
      const store = await service.request<{ id: string }>("POST", "/api/datastores", {
        auth: org,
        json: { name: "Pages" },
      });
      const created = await service.request<Datasource>("POST", "/api/datasources", {
        auth: org,
        json: {
          datastoreId: store.body.id,
          type: "web_page",
          config: { source_url: `${site.base}/never-answers` },
        },
      });
      expect(created.status).toBe(201);
      const runs = () => site.requests.filter((path) => path === "/never-answers").length;

      // Two runs, each ended by the death of the process running it.
      for (const run of [1, 2]) {
        await until(
          async () => runs(),
          (count) => count === run,
          60_000,
        );
        await service.kill();
        service = await spawnService();
      }

      const read = () =>
        service
          .request<Datasource>("GET", `/api/datasources/${created.body.id}`, { auth: org })
          .then(({ body }) => body);
      const ended = await until(read, (datasource) => datasource.status === "error", 60_000);
      expect(ended.errorMessage).toMatch(/^Ingestion did not finish: every attempt stopped/);
      // A third run would have come one retry delay after the job was handed out again.
      await new Promise((resolve) => setTimeout(resolve, INGEST_RETRY_DELAY_MS + 2_000));
      expect(runs()).toBe(2);
      expect((await read()).status).toBe("error");
      expect(service.output()).toContain("a job ended its process twice; given up");
    },
    SLOW_TEST_MS,
  );
});
