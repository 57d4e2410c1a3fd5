import { describe, expect, vi } from "vitest";
import { memberOf } from "../harness/accounts.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { ApiClient } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";

const test = appTest();

const REFUNDS =
  "# Refund policy\n\nRefunds are accepted within 30 days of delivery. The money returns within five business days.";

let agentId: string;
let goodAnswer: { text: string; messageId: string };
let tagId: string;

async function ask(api: ApiClient, query: string, conversationId?: string) {
  const response = await api.agents.query(agentId, {
    query,
    ...(conversationId ? { conversationId } : {}),
  });
  expect(response.status).toBe(200);
  return response.body;
}

async function annotate(api: ApiClient, body: Parameters<ApiClient["annotations"]["create"]>[0]) {
  const response = await api.annotations.create(body);
  expect(response.status).toBe(200);
  return response.body;
}

test.beforeAll(async ({ app, org, api }) => {
  const datastoreId = (await createDatastore(app, org, { name: "Help centre" })).id;
  const datasource = await addFile(app, org, datastoreId, {
    fileName: "refunds.md",
    contentType: "text/markdown",
    content: REFUNDS,
  });
  expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
  agentId = (await createAgent(app, org, { name: "Refunds", datastoreIds: [datastoreId] })).id;
  tagId = (await api.annotationTags.create({ name: "gold" })).body.id;

  // A conversation of two turns: the second answer is the approved one.
  const first = await ask(api, "Hi there");
  const second = await ask(api, "Within how many days are refunds accepted?", first.conversationId);
  expect(second.sources.map((source) => source.source)).toContain("refunds.md");
  goodAnswer = { text: second.answer, messageId: second.messageId };
  await annotate(api, {
    messageId: second.messageId,
    sentiment: "good",
    comment: "Exactly right",
    tagIds: [tagId],
  });
  // Another conversation, answered badly.
  const cheque = await ask(api, "Can I pay by cheque?");
  await annotate(api, {
    messageId: cheque.messageId,
    sentiment: "bad",
    comment: "Should say that cheques are not accepted, only cards.",
  });
});

async function newSet(api: ApiClient, name: string) {
  const created = await api.evals.createSet({ name, agentId });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe("importing annotations", () => {
  test("makes a case of each: a good answer pinned with its sources, a bad one's comment as the expectation", async ({
    api,
  }) => {
    const setId = await newSet(api, "Reviewed");
    const imported = await api.evals.importCases(setId, { from: "annotations" });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ imported: 2, skipped: 0 });
    const cases = (await api.evals.listCases(setId)).body.data;
    expect(cases).toHaveLength(2);
    const [good, bad] = cases;
    expect(good).toMatchObject({
      question: "Within how many days are refunds accepted?",
      history: [
        { from: "human", text: "Hi there" },
        { from: "agent", text: expect.any(String) },
      ],
      expectedAnswer: goodAnswer.text,
      expectedSources: ["refunds.md"],
      mustInclude: [],
      annotationId: expect.any(String),
    });
    expect(bad).toMatchObject({
      question: "Can I pay by cheque?",
      history: [],
      expectedAnswer: "Should say that cheques are not accepted, only cards.",
      expectedSources: [],
    });

    const again = await api.evals.importCases(setId, { from: "annotations" });
    expect(again.body).toMatchObject({ imported: 0, skipped: 0, data: [] });
    expect((await api.evals.listCases(setId)).body.data).toHaveLength(2);
  });

  test("takes the filters: sentiment, status and tags", async ({ api }) => {
    const bad = await newSet(api, "Bad only");
    expect(
      (await api.evals.importCases(bad, { from: "annotations", sentiment: "bad" })).body,
    ).toMatchObject({ imported: 1, data: [{ question: "Can I pay by cheque?" }] });
    const tagged = await newSet(api, "Gold");
    expect(
      (await api.evals.importCases(tagged, { from: "annotations", tagIds: [tagId] })).body,
    ).toMatchObject({ imported: 1, data: [{ expectedSources: ["refunds.md"] }] });
    const resolved = await newSet(api, "Resolved");
    expect(
      (await api.evals.importCases(resolved, { from: "annotations", status: "resolved" })).body,
    ).toMatchObject({ imported: 0 });
  });

  test("replays a pinned answer's sources: the source hit rate", async ({ api }) => {
    const setId = await newSet(api, "Sources");
    await api.evals.importCases(setId, { from: "annotations", sentiment: "good" });
    const started = await api.evals.startRun({ evalSetId: setId });
    const run = await vi.waitFor(
      async () => {
        const read = (await api.evals.getRun(started.body.id)).body;
        expect(read.status).toBe("completed");
        return read;
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(run.summary.sourceHitRate).toBe(1);
    expect(run.results[0]!.checks.find((check) => check.name === "expectedSources")).toEqual({
      name: "expectedSources",
      passed: true,
      detail: "Cites all 1 expected sources",
    });
    expect(run.results[0]!.sources.map((source) => source.source)).toContain("refunds.md");
  });

  test("refuses what it cannot import from", async ({ api }) => {
    const setId = await newSet(api, "Bad input");
    for (const body of [
      {},
      { from: "csv" },
      { from: "annotations", sentiment: "meh" },
      { from: "annotations", tagIds: "gold" },
    ]) {
      const response = await api.evals.importCases(setId, body as never);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.evals.importCases("missing", { from: "annotations" })).status).toBe(404);
    expect((await api.evals.listCases(setId)).body.data).toEqual([]);
  });

  test("never reads another organization's annotations", async ({ app }) => {
    const stranger = await createFundedOrganization(app, "Stranger");
    const strangerApi = app.client(stranger.auth);
    const theirs = await createAgent(app, stranger);
    const setId = (await strangerApi.evals.createSet({ name: "Mine", agentId: theirs.id })).body.id;
    expect(
      (await strangerApi.evals.importCases(setId, { from: "annotations" })).body,
    ).toMatchObject({ imported: 0, skipped: 0 });
  });
});

describe("who may use eval sets and runs", () => {
  test("a viewer reads them but cannot change or run them", async ({ app, org, api }) => {
    const setId = await newSet(api, "Viewed");
    await api.evals.addCase(setId, { question: "Hello" });
    const viewer = await memberOf(app, org, "viewer");
    const asViewer = api.as({ ...viewer.headers });
    expect((await asViewer.evals.getSet(setId)).status).toBe(200);
    expect((await asViewer.evals.listCases(setId)).status).toBe(200);
    expect((await asViewer.evals.addCase(setId, { question: "Mine" })).status).toBe(403);
    expect((await asViewer.evals.deleteSet(setId)).status).toBe(403);
    expect((await asViewer.evals.importCases(setId, { from: "annotations" })).status).toBe(403);
    expect((await asViewer.evals.startRun({ evalSetId: setId })).status).toBe(403);
    expect((await api.evals.listCases(setId)).body.data).toHaveLength(1);
  });

  test("a key limited to other agents is refused the set's agent", async ({ app, org, api }) => {
    const setId = await newSet(api, "Scoped");
    await api.evals.addCase(setId, { question: "Hello" });
    const other = await createAgent(app, org, { name: "Other" });
    const owner = await memberOf(app, org, "owner");
    const made = await app.api.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: owner.headers,
      payload: { name: "other agent only", agentIds: [other.id] },
    });
    expect(made.statusCode).toBe(201);
    const scoped = api.as({ authorization: `Bearer ${made.json().key}` });
    expect((await scoped.evals.getSet(setId)).status).toBe(403);
    expect((await scoped.evals.startRun({ evalSetId: setId })).status).toBe(403);
    expect((await scoped.evals.createSet({ name: "x", agentId })).status).toBe(403);
    expect((await scoped.evals.listSets()).body.data.map((set) => set.id)).not.toContain(setId);
    expect((await scoped.evals.createSet({ name: "ok", agentId: other.id })).status).toBe(201);
  });
});
