import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { unchecked } from "../harness/client.ts";
import {
  addFile,
  createDatastore,
  getDatasource,
  knowledgeTest,
  type QueryResult,
  query,
  waitForSync,
} from "./knowledge-helpers.ts";

// Long enough for a first read to start its parser thread on a busy machine.
const INGEST_TIMEOUT_MS = 8_000;

const test = knowledgeTest({
  orgName: "Lifecycle Co",
  env: {
    KNOWLEDGE_INGEST_TIMEOUT_MS: String(INGEST_TIMEOUT_MS),
    KNOWLEDGE_PLAN_LIMITS: "tiny=120",
  },
});

const note = (content: string, fileName = "note.md") => ({
  fileName,
  contentType: "text/markdown",
  content,
});

async function chunkRows(app: TestApp, datasourceId: string) {
  const result = await app.database.db.execute(
    sql`select id, content_hash, created_at from knowledge_chunks where datasource_id = ${datasourceId} order by position`,
  );
  return rowsOf<{ id: string; content_hash: string; created_at: unknown }>(result);
}

async function ask(
  app: TestApp,
  org: TestOrganization,
  datastoreId: string,
  body: Record<string, unknown>,
): Promise<QueryResult[]> {
  const response = await query(app, org, datastoreId, body);
  expect(response.status).toBe(200);
  return response.body;
}

describe("status lifecycle", () => {
  test("answers at once (pending) while the job works, and a job past its time ends in error", async ({
    app,
    org,
    web,
  }) => {
    web.routes.set("/slow", { hang: true });
    const store = await createDatastore(app, org);
    const response = await app.client(org.auth).datasources.create({
      datastoreId: store.id,
      type: "web_page",
      config: { source_url: `${web.base}/slow` },
    });
    expect(response.status).toBe(201);
    expect(["pending", "running"]).toContain(response.body.status);

    const ended = await waitForSync(app, org, response.body.id, 15_000);
    expect(ended.status).toBe("error");
    expect(ended.errorMessage).toBe("Ingestion took longer than 8 s and was stopped");
  });

  test("a run whose worker died is reported as error once its deadline has passed", async ({
    app,
    org,
  }) => {
    const store = await createDatastore(app, org);
    const created = await addFile(app, org, store.id, note("A worker will pretend to die."));
    await waitForSync(app, org, created.id);
    // What a crashed worker leaves behind: a running row whose deadline is in the past.
    await app.database.db.execute(
      sql`update datasources set status = 'running', sync_deadline_at = now() - interval '1 second' where id = ${created.id}`,
    );
    const seen = await getDatasource(app, org, created.id);
    expect(seen.status).toBe("error");
    expect(seen.errorMessage).toContain("did not finish in time");
  });

  test("a re-sync of unchanged content writes no chunk", async ({ app, org }) => {
    const store = await createDatastore(app, org);
    const text = Array.from(
      { length: 40 },
      (_, index) => `Paragraph ${index} about ferns and mosses.`,
    ).join("\n\n");
    const created = await addFile(app, org, store.id, note(text));
    const first = await waitForSync(app, org, created.id);
    expect(first.status).toBe("synched");
    const before = await chunkRows(app, created.id);
    expect(before.length).toBeGreaterThan(0);

    const resync = await app.client(org.auth).datasources.sync(created.id);
    expect(resync.status).toBe(202);
    const second = await waitForSync(app, org, created.id);
    expect(second.status).toBe("synched");
    expect(new Date(second.lastSynch!).getTime()).toBeGreaterThanOrEqual(
      new Date(first.lastSynch!).getTime(),
    );
    expect(await chunkRows(app, created.id)).toEqual(before);
  });
});

describe("deprecated POST /api/datastores/update/{datastoreId}", () => {
  test("replaces the text of a datasource and re-indexes it", async ({ app, org }) => {
    const store = await createDatastore(app, org);
    const created = await addFile(app, org, store.id, note("Old text about walruses."));
    await waitForSync(app, org, created.id);
    const response = await app.client(org.auth).datastores.updateText(store.id, {
      id: created.id,
      text: "New text about narwhals.",
      name: "Sea mammals",
      metadata: { lang: "en" },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: created.id });
    const synced = await waitForSync(app, org, created.id);
    expect(synced).toMatchObject({
      status: "synched",
      name: "Sea mammals",
      type: "text",
      config: { metadata: { lang: "en" } },
    });
    const texts = (await ask(app, org, store.id, { query: "walruses narwhals" })).map(
      (hit) => hit.text,
    );
    expect(texts.join(" ")).toContain("narwhals");
    expect(texts.join(" ")).not.toContain("walruses");
  });

  test.for([
    ["an unknown datasource", { id: "nope", text: "x" }, 404],
    ["a missing text", { id: "nope" }, 400],
  ] as const)("refuses %s", async ([, payload, status], { app, org }) => {
    const store = await createDatastore(app, org);
    const response = await app.client(org.auth).datastores.updateText(store.id, unchecked(payload));
    expect(response.status).toBe(status);
  });

  test("refuses a datasource of another datastore (404)", async ({ app, org }) => {
    const first = await createDatastore(app, org);
    const second = await createDatastore(app, org);
    const created = await addFile(app, org, first.id, note("Belongs to the first datastore."));
    const response = await app
      .client(org.auth)
      .datastores.updateText(second.id, { id: created.id, text: "Hijack" });
    expect(response.status).toBe(404);
  });
});

describe("stored-token limit", () => {
  test("ends a sync that would pass the plan's limit in usage_limit_reached, storing nothing", async ({
    app,
  }) => {
    const tiny = await app.createOrganization("Tiny plan", { plan: "tiny" });
    const store = await createDatastore(app, tiny);
    const small = await addFile(app, tiny, store.id, note("Ten or so tokens of text about owls."));
    expect((await waitForSync(app, tiny, small.id)).status).toBe("synched");
    const big = await addFile(app, tiny, store.id, note("Badgers dig setts. ".repeat(60)));
    const ended = await waitForSync(app, tiny, big.id);
    expect(ended.status).toBe("usage_limit_reached");
    expect(ended.errorMessage).toContain("120-token knowledge limit of the tiny plan");
    expect(await chunkRows(app, big.id)).toEqual([]);
  });
});

describe("datasource delete", () => {
  test("returns the datasource and removes its chunks", async ({ app, org }) => {
    const store = await createDatastore(app, org);
    const created = await addFile(app, org, store.id, note("Capybaras enjoy hot springs."));
    await waitForSync(app, org, created.id);
    expect((await ask(app, org, store.id, { query: "capybaras" })).length).toBe(1);
    const response = await app.client(org.auth).datasources.delete(created.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: created.id,
      type: "file",
      name: "note.md",
      status: "synched",
    });
    expect(await ask(app, org, store.id, { query: "capybaras" })).toEqual([]);
    expect(await chunkRows(app, created.id)).toEqual([]);
    const again = await app.client(org.auth).datasources.delete(created.id);
    expect(again.status).toBe(404);
  });
});

describe("query rules", () => {
  let storeId: string;
  let manyId: string;
  let otherId: string;

  test.beforeAll(async ({ app, org }) => {
    storeId = (await createDatastore(app, org)).id;
    const many = Array.from(
      { length: 12 },
      (_, section) =>
        `# Section ${section}\n\n${"Tea ceremonies use whisked matcha and bowls. ".repeat(50)}`,
    ).join("\n\n");
    const manyFile = await addFile(app, org, storeId, note(many, "tea.md"), [
      { name: "custom_id", value: "tenant-a" },
    ]);
    const otherFile = await addFile(
      app,
      org,
      storeId,
      note("Matcha tea is grown in shade.", "shade.md"),
      [{ name: "custom_id", value: "tenant-b" }],
    );
    manyId = manyFile.id;
    otherId = otherFile.id;
    expect((await waitForSync(app, org, manyId)).chunkCount).toBeGreaterThan(5);
    await waitForSync(app, org, otherId);
  });

  test("topK defaults to 5 and is honoured", async ({ app, org }) => {
    expect(await ask(app, org, storeId, { query: "matcha tea" })).toHaveLength(5);
    expect(await ask(app, org, storeId, { query: "matcha tea", topK: 1 })).toHaveLength(1);
  });

  test.for([0, 101, 2.5, "5"])("refuses topK %s with 400", async (topK, { app, org }) => {
    const response = await query(app, org, storeId, { query: "matcha", topK });
    expect(response.status).toBe(400);
    expect(response.error.details?.[0]?.path).toBe("body.topK");
  });

  test("refuses a missing or empty query with 400", async ({ app, org }) => {
    expect((await query(app, org, storeId, { topK: 3 })).status).toBe(400);
    expect((await query(app, org, storeId, { query: "  " })).status).toBe(400);
  });

  test("filters by datasource id and custom id inside the query, so topK still holds", async ({
    app,
    org,
  }) => {
    const onlyOther = await ask(app, org, storeId, {
      query: "matcha tea",
      topK: 5,
      filters: { datasource_ids: [otherId] },
    });
    expect(onlyOther.map((hit) => hit.datasource_id)).toEqual([otherId]);
    const tenantA = await ask(app, org, storeId, {
      query: "matcha tea shade",
      topK: 4,
      filters: { custom_ids: ["tenant-a"] },
    });
    expect(tenantA).toHaveLength(4);
    expect(new Set(tenantA.map((hit) => hit.custom_id))).toEqual(new Set(["tenant-a"]));
    const both = await ask(app, org, storeId, {
      query: "matcha",
      filters: { custom_ids: ["tenant-a"], datasource_ids: [otherId] },
    });
    expect(both).toEqual([]);
  });

  test("orders results by a score in 0..1, best first", async ({ app, org }) => {
    const results = await ask(app, org, storeId, { query: "matcha grown in shade", topK: 10 });
    const scores = results.map((hit) => hit.score);
    expect([...scores].sort((left, right) => right - left)).toEqual(scores);
    expect(scores[0]).toBeLessThanOrEqual(1);
    expect(scores.at(-1)).toBeGreaterThan(0);
    expect(results[0]!.datasource_id).toBe(otherId);
  });
});
