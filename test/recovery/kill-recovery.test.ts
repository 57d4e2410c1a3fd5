import { describe, expect } from "vitest";
import { startReceiver } from "../fakes/http-receiver.ts";
import { startFakeWebSite } from "../fakes/web-site.ts";
import type { TestOrganization } from "../harness/app.ts";
import { testDatabaseKind } from "../harness/database.ts";
import type { ServiceProcess } from "../harness/service-process.ts";
import { multipartBody } from "../knowledge/knowledge-helpers.ts";
import { serviceTest } from "./recovery-helpers.ts";

// Real `agentdesk serve` processes killed with SIGKILL at the worst moments. PGlite: the same
// DATA_DIR is started again. PostgreSQL: a second process, started before the kill, carries on.
// The recovery bound of docs/knowledge.md and docs/webhooks.md is 2 minutes; the job lease is
// 2 s here (30 s in production), so recovery takes seconds.
const RECOVERY_BOUND_MS = 120_000;
const SLOW_TEST_MS = 180_000;
const WEBHOOK_TIMEOUT_MS = 15_000;
const JOB_LEASE_SECONDS = 2;
const FINAL = new Set(["synched", "error", "usage_limit_reached"]);

type Datasource = { id: string; status: string; errorMessage: string | null; chunkCount: number };
type Hit = { text: string; datasource_id: string };
type Delivery = {
  id: string;
  state: string;
  attemptCount: number;
  attempts: { attempt: number; outcome: string }[];
};

const test = serviceTest("agentdesk-kill-")
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("web", { scope: "file" }, async ({}, { onCleanup }) => {
    const web = await startFakeWebSite();
    onCleanup(() => web.close());
    return web;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("receiver", { scope: "file" }, async ({}, { onCleanup }) => {
    const receiver = await startReceiver();
    onCleanup(() => receiver.close());
    return receiver;
  });
test.override("env", { scope: "file" }, ({ storage }) => ({
  ...storage,
  JOB_LEASE_SECONDS: String(JOB_LEASE_SECONDS),
  KNOWLEDGE_PLAN_LIMITS: "",
  WEBHOOK_BATCH_DELAY_MS: "300",
  WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
}));

type SpawnService = () => Promise<ServiceProcess>;

/** The process the next kill hits, and the organization everything belongs to. */
let current: ServiceProcess;
let org: TestOrganization;

test.beforeAll(async ({ web, receiver, spawnService }) => {
  // Started before the first process, so closed after the last one is killed.
  void web;
  void receiver;
  current = await spawnService();
  org = await current.createOrganization("Kill -9");
}, 90_000);

/**
 * Kills the current process and returns the one that carries on, with the moment recovery is
 * timed from: the kill (PostgreSQL, the survivor is up) or the restarted process's banner.
 * `survivor` must have been started before the kill on PostgreSQL (see `standBy`).
 */
async function killCurrent(spawnService: SpawnService, survivor: ServiceProcess | null) {
  await current.kill();
  const killedAt = Date.now();
  const next = survivor ?? (await spawnService());
  current = next;
  return { service: next, since: Math.max(killedAt, next.upAt) };
}

/** PostgreSQL: a second process, up before the kill. PGlite: none can open the DATA_DIR. */
async function standBy(spawnService: SpawnService): Promise<ServiceProcess | null> {
  return testDatabaseKind === "postgres" ? spawnService() : null;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out; last ${JSON.stringify(value)}\n${current.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function createDatastore(service: ServiceProcess): Promise<string> {
  const { status, body } = await service.request<{ id: string }>("POST", "/api/datastores", {
    auth: org,
    json: { name: "Recovery" },
  });
  expect(status).toBe(201);
  return body.id;
}

async function upload(service: ServiceProcess, datastoreId: string, name: string, text: string) {
  const { payload, headers } = multipartBody(
    [
      { name: "type", value: "file" },
      { name: "datastoreId", value: datastoreId },
    ],
    { fileName: name, contentType: "text/markdown", content: text },
  );
  const { status, body } = await service.request<Datasource>("POST", "/api/datasources", {
    auth: org,
    body: payload,
    headers,
  });
  expect(status).toBe(201);
  return body;
}

const datasourcesOf = async (service: ServiceProcess, datastoreId: string) =>
  (
    await service.request<Datasource[]>("GET", `/api/datastores/${datastoreId}/datasources`, {
      auth: org,
    })
  ).body;

const datasource = async (service: ServiceProcess, id: string) =>
  (await service.request<Datasource>("GET", `/api/datasources/${id}`, { auth: org })).body;

/** A Markdown document of about `bytes` bytes whose paragraphs are all different. */
function document(title: string, bytes: number): string {
  let text = `# ${title}\n\n`;
  for (let index = 0; text.length < bytes; index += 1) {
    text += `Paragraph ${index} of ${title} says something only it says: fact ${index * 7919}.\n\n`;
  }
  return text;
}

const page = (title: string) =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${title} is about ferns, which grow in the shade.</p></main></body></html>`;

describe("a process killed with SIGKILL", () => {
  test(
    "leaves no datasource it had just created pending: all are synched after it",
    async ({ web, spawnService }) => {
      const datastoreId = await createDatastore(current);
      // Three web pages whose site answers only after the kill: their runs are surely cut.
      let answer = () => {};
      const answered = new Promise<void>((resolve) => {
        answer = resolve;
      });
      const created: Datasource[] = [];
      for (let index = 0; index < 13; index += 1) {
        if (index % 4 === 3) {
          web.routes.set(`/page-${index}`, { body: page(`Page ${index}`), after: answered });
          const { status, body } = await current.request<Datasource>("POST", "/api/datasources", {
            auth: org,
            json: {
              datastoreId,
              type: "web_page",
              config: { source_url: `${web.base}/page-${index}` },
            },
          });
          expect(status).toBe(201);
          created.push(body);
        } else {
          created.push(
            await upload(
              current,
              datastoreId,
              `note-${index}.md`,
              document(`Note ${index}`, 3_000),
            ),
          );
        }
      }
      const survivor = await standBy(spawnService);
      const { service, since } = await killCurrent(spawnService, survivor);
      answer();

      const ended = await until(
        () => datasourcesOf(service, datastoreId),
        (rows) => rows.length === 13 && rows.every((row) => FINAL.has(row.status)),
        RECOVERY_BOUND_MS,
      );
      expect(Date.now() - since).toBeLessThan(RECOVERY_BOUND_MS);
      expect(ended.map((row) => row.status)).toEqual(Array(13).fill("synched"));
      expect(ended.every((row) => row.chunkCount > 0)).toBe(true);
      expect(ended.map((row) => row.id).sort()).toEqual(created.map((row) => row.id).sort());
    },
    SLOW_TEST_MS,
  );

  test(
    "syncs again a web page whose run it killed while fetching",
    async ({ web, spawnService }) => {
      const datastoreId = await createDatastore(current);
      let answer = () => {};
      web.routes.set("/slow-page", {
        body: page("Slow"),
        after: new Promise<void>((resolve) => {
          answer = resolve;
        }),
      });
      const { status, body } = await current.request<Datasource>("POST", "/api/datasources", {
        auth: org,
        json: { datastoreId, type: "web_page", config: { source_url: `${web.base}/slow-page` } },
      });
      expect(status).toBe(201);
      // Running in the current process: it claimed the datasource and waits for the page.
      await until(
        () => datasource(current, body.id),
        (row) => row.status === "running",
        30_000,
      );
      const survivor = await standBy(spawnService);
      const { service, since } = await killCurrent(spawnService, survivor);
      answer();

      const ended = await until(
        () => datasource(service, body.id),
        (row) => FINAL.has(row.status),
        RECOVERY_BOUND_MS,
      );
      expect(Date.now() - since).toBeLessThan(RECOVERY_BOUND_MS);
      expect(ended).toMatchObject({ status: "synched", errorMessage: null });
    },
    SLOW_TEST_MS,
  );

  test.skipIf(testDatabaseKind !== "pglite")(
    "syncs again, without duplicate chunks, a file it killed while writing its chunks",
    async ({ spawnService }) => {
      const datastoreId = await createDatastore(current);
      const created = await upload(current, datastoreId, "big.md", document("Big", 600_000));
      // Chunks are being written: on PGlite 8 rows per transaction, for several seconds.
      await until(
        () => datasource(current, created.id),
        (row) => row.status === "running",
        30_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const { service, since } = await killCurrent(spawnService, null);

      const ended = await until(
        () => datasource(service, created.id),
        (row) => FINAL.has(row.status),
        RECOVERY_BOUND_MS,
      );
      expect(Date.now() - since).toBeLessThan(RECOVERY_BOUND_MS);
      expect(ended.status).toBe("synched");
      const { body: hits } = await service.request<Hit[]>(
        "POST",
        `/api/datastores/${datastoreId}/query`,
        { auth: org, json: { query: "Paragraph of Big says something only it says", topK: 50 } },
      );
      expect(hits.length).toBeGreaterThan(10);
      expect(new Set(hits.map((hit) => hit.text)).size).toBe(hits.length);
    },
    SLOW_TEST_MS,
  );

  test(
    "delivers a webhook it killed mid-delivery once, with the same delivery id, after the lease",
    async ({ receiver, spawnService }) => {
      const agent = await current.request<{ id: string }>("POST", "/api/agents", {
        auth: org,
        json: { name: "Recovery", modelName: "gpt_4o_mini", useConversationalMode: true },
      });
      expect(agent.status).toBe(201);
      receiver.holdPosts(true);
      const queued = await current.request<{ conversationId: string }>(
        "POST",
        `/api/agents/${agent.body.id}/query`,
        { auth: org, json: { query: "When are you open?", webhookUrl: `${receiver.url}/hook` } },
      );
      expect(queued.status).toBe(200);
      const held = await until(
        async () => receiver.requests.filter((request) => request.method === "POST"),
        (posts) => posts.length === 1,
        30_000,
      );
      const attemptStartedAt = held[0]!.receivedAt;
      const survivor = await standBy(spawnService);
      const { service, since } = await killCurrent(spawnService, survivor);
      receiver.holdPosts(false);

      const delivery = await until(
        async () =>
          (
            await service.request<{ data: Delivery[] }>(
              "GET",
              `/api/conversations/${queued.body.conversationId}/webhook-deliveries`,
              { auth: org },
            )
          ).body.data[0],
        (found) => found?.state === "delivered",
        RECOVERY_BOUND_MS,
      );
      expect(Date.now() - since).toBeLessThan(RECOVERY_BOUND_MS);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const posts = receiver.requests.filter((request) => request.method === "POST");
      // The held attempt and the takeover: one delivery id, answered once.
      expect(new Set(posts.map((post) => post.headers["x-service-delivery"]))).toEqual(
        new Set([delivery!.id]),
      );
      expect(posts.filter((post) => post.answeredWith === 200)).toHaveLength(1);
      expect(delivery).toMatchObject({
        attemptCount: 1,
        attempts: [{ attempt: 1, outcome: "delivered" }],
      });
      // Not before the attempt's lease (its timeout plus one job lease) ran out.
      const takeover = posts.at(-1)!.receivedAt;
      expect(takeover - attemptStartedAt).toBeGreaterThanOrEqual(
        WEBHOOK_TIMEOUT_MS + JOB_LEASE_SECONDS * 1000 - 500,
      );
    },
    SLOW_TEST_MS,
  );
});
