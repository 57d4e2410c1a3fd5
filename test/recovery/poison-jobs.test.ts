import { describe, expect } from "vitest";
import { startFakeWebSite } from "../fakes/web-site.ts";
import type { TestOrganization } from "../harness/app.ts";
import { serviceTest } from "./recovery-helpers.ts";

// A sync whose runs keep ending with their process (here: the process is killed with SIGKILL
// while the run waits on a page that never answers, as an out-of-memory kill would end it) is
// run twice, then given up: the datasource ends in error and no third run starts. PGlite: the same
// DATA_DIR is started again (its start fails the orphaned job at once). PostgreSQL: the next
// process finds the job once its lease (2 s here) has run out.
const JOB_LEASE_SECONDS = 2;
const INGEST_RETRY_DELAY_MS = 5_000;
const SLOW_TEST_MS = 150_000;

type Datasource = { id: string; status: string; errorMessage: string | null };

const test = serviceTest("agentdesk-poison-")
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("site", { scope: "file" }, async ({}, { onCleanup }) => {
    const site = await startFakeWebSite({ "/never-answers": { hang: true } });
    onCleanup(() => site.close());
    return site;
  });
test.override("env", { scope: "file" }, ({ storage }) => ({
  ...storage,
  JOB_LEASE_SECONDS: String(JOB_LEASE_SECONDS),
  KNOWLEDGE_PLAN_LIMITS: "",
  KNOWLEDGE_FETCH_TIMEOUT_MS: "120000",
}));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a job whose runs end with their process", () => {
  test(
    "is run twice, then failed for good with its datasource in error, never a third time",
    async ({ site, spawnService }) => {
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
