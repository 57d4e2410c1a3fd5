import { describe, expect } from "vitest";
import { parseKnowledgeBlock } from "../../src/models/knowledge-prompt.ts";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";

const test = appTest();

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

let agentId: string;
let datastoreId: string;
test.beforeAll(async ({ app, org }) => {
  datastoreId = (await createDatastore(app, org, { name: "Help centre" })).id;
  for (const [fileName, content] of [
    ["refunds.md", REFUNDS],
    ["shipping.md", SHIPPING],
  ]) {
    const datasource = await addFile(app, org, datastoreId, {
      fileName: fileName!,
      contentType: "text/markdown",
      content: content!,
    });
    expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
  }
  agentId = (await createAgent(app, org, { datastoreIds: [datastoreId] })).id;
});

const systemOf = (fake: FakeOpenAI, index = 0) => {
  const chats = fake.requests.filter((request) => request.path === "/v1/chat/completions");
  const messages = (chats[index]?.body?.messages ?? []) as Array<{ role: string; content: string }>;
  return messages.find((message) => message.role === "system")?.content ?? "";
};

describe("knowledge from the agent's datastores", () => {
  test("reaches the model in the system prompt and comes back in sources", async ({
    api,
    fake,
  }) => {
    fake.script({ text: "Within 30 days of delivery." });
    const response = await api.agents.query(agentId, {
      query: "Within how many days are refunds accepted?",
    });
    expect(response.status).toBe(200);
    const body = response.body;
    const passages = parseKnowledgeBlock(systemOf(fake));
    expect(passages[0]).toEqual({
      source: "refunds.md",
      text: expect.stringContaining("Refunds are accepted within 30 days"),
    });
    expect(body.sources[0]).toEqual({ source: "refunds.md", chunk: passages[0]!.text });
    expect(body.sources).toEqual(
      passages.map((passage) => ({ source: passage.source, chunk: passage.text })),
    );
    expect(systemOf(fake)).toContain("Base your answers on the knowledge passages below");

    const stored = await api.conversations.get(body.conversationId);
    expect(stored.body.messages[1].sources[0]).toMatchObject({
      source: "refunds.md",
      chunk: passages[0]!.text,
      datasourceId: expect.any(String),
      datasourceName: "refunds.md",
      score: expect.any(Number),
    });
  });

  test("drops passages far less relevant than the best one", async ({ api, fake }) => {
    await api.agents.query(agentId, {
      query: "refunds accepted within days original payment method",
    });
    const sources = parseKnowledgeBlock(systemOf(fake)).map((passage) => passage.source);
    expect(sources[0]).toBe("refunds.md");
    expect(sources).not.toContain("shipping.md");
  });

  test("sends no knowledge block to an agent without datastores", async ({
    app,
    api,
    fake,
    org,
  }) => {
    const plain = await createAgent(app, org, { name: "Plain" });
    const response = await api.agents.query(plain.id, { query: "refunds?" });
    expect(response.body.sources).toEqual([]);
    expect(systemOf(fake)).not.toContain("<knowledge>");
  });

  test("keeps working when an attached datastore is deleted", async ({ app, api, org }) => {
    const extra = await createDatastore(app, org, { name: "Temporary" });
    const agent = await createAgent(app, org, { name: "Orphan", datastoreIds: [extra.id] });
    await api.datastores.delete(extra.id);
    const response = await api.agents.query(agent.id, { query: "anything?" });
    expect(response.status).toBe(200);
    expect(response.body.sources).toEqual([]);
  });
});
