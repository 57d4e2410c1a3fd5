import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseKnowledgeBlock } from "../../src/models/knowledge-prompt.ts";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  query,
  startQueryTestApp,
} from "../agents/agent-helpers.ts";
import type { TestOrganization } from "../harness/app.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";

const REFUNDS = [
  "# Refund policy",
  "",
  "Refunds are accepted within 30 days of delivery. The money returns to the original payment method within five business days.",
].join("\n");
const SHIPPING = [
  "# Shipping",
  "",
  "Parcels leave our warehouse in Rotterdam every weekday at noon. Express delivery costs 12 euros.",
].join("\n");

let t: QueryTestApp;
let org: TestOrganization;
let agentId: string;
let datastoreId: string;
beforeAll(async () => {
  t = await startQueryTestApp();
  org = await createFundedOrganization(t.app);
  datastoreId = (await createDatastore(t.app, org, { name: "Help centre" })).id;
  for (const [fileName, content] of [
    ["refunds.md", REFUNDS],
    ["shipping.md", SHIPPING],
  ]) {
    const datasource = await addFile(t.app, org, datastoreId, {
      fileName: fileName!,
      contentType: "text/markdown",
      content: content!,
    });
    expect((await waitForSync(t.app, org, datasource.id)).status).toBe("synched");
  }
  agentId = (await createAgent(t.app, org, { datastoreIds: [datastoreId] })).id;
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.requests.length = 0;
});

const systemOf = (index = 0) => {
  const chats = t.fake.requests.filter((request) => request.path === "/v1/chat/completions");
  const messages = (chats[index]?.body?.messages ?? []) as Array<{ role: string; content: string }>;
  return messages.find((message) => message.role === "system")?.content ?? "";
};

describe("knowledge from the agent's datastores", () => {
  it("reaches the model in the system prompt and comes back in sources", async () => {
    t.fake.script({ text: "Within 30 days of delivery." });
    const response = await query(t.app, org, agentId, {
      query: "Within how many days are refunds accepted?",
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const passages = parseKnowledgeBlock(systemOf());
    expect(passages[0]).toEqual({
      source: "refunds.md",
      text: expect.stringContaining("Refunds are accepted within 30 days"),
    });
    expect(body.sources[0]).toEqual({ source: "refunds.md", chunk: passages[0]!.text });
    expect(body.sources).toEqual(
      passages.map((passage) => ({ source: passage.source, chunk: passage.text })),
    );
    expect(systemOf()).toContain("Base your answers on the knowledge passages below");

    const stored = await t.app.api.inject({
      url: `/api/conversations/${body.conversationId}`,
      headers: org.auth,
    });
    expect(stored.json().messages[1].sources[0]).toMatchObject({
      source: "refunds.md",
      chunk: passages[0]!.text,
      datasourceId: expect.any(String),
      datasourceName: "refunds.md",
      score: expect.any(Number),
    });
  });

  it("drops passages far less relevant than the best one", async () => {
    await query(t.app, org, agentId, {
      query: "refunds accepted within days original payment method",
    });
    const sources = parseKnowledgeBlock(systemOf()).map((passage) => passage.source);
    expect(sources[0]).toBe("refunds.md");
    expect(sources).not.toContain("shipping.md");
  });

  it("sends no knowledge block to an agent without datastores", async () => {
    const plain = await createAgent(t.app, org, { name: "Plain" });
    const response = await query(t.app, org, plain.id, { query: "refunds?" });
    expect(response.json().sources).toEqual([]);
    expect(systemOf()).not.toContain("<knowledge>");
  });

  it("keeps working when an attached datastore is deleted", async () => {
    const extra = await createDatastore(t.app, org, { name: "Temporary" });
    const agent = await createAgent(t.app, org, { name: "Orphan", datastoreIds: [extra.id] });
    await t.app.api.inject({
      method: "DELETE",
      url: `/api/datastores/${extra.id}`,
      headers: org.auth,
    });
    const response = await query(t.app, org, agent.id, { query: "anything?" });
    expect(response.statusCode).toBe(200);
    expect(response.json().sources).toEqual([]);
  });
});
