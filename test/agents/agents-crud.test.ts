import { describe, expect } from "vitest";
import { AGENT_MODEL_NAMES } from "../../src/models/model-catalog.ts";
import { type AgentFields, createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import { createDatastore } from "../knowledge/knowledge-helpers.ts";

const test = appTest({ offline: true, orgName: "Agents Inc", funded: false });

const fullAgent: AgentFields = {
  name: "Front desk",
  description: "Answers questions about orders",
  modelName: "claude_4_sonnet",
  temperature: 0.4,
  visibility: "public",
  systemPrompt: "Be brief.",
  userPrompt: "Question: {query}",
  handle: "front-desk",
  iconUrl: "https://cdn.example.com/icon.png",
  useSuperRetrieval: true,
  useFollowUp: true,
  useConversationalMode: true,
  promptType: "raw",
  promptTemplate: "{context}",
  retrievalEvaluationConfig: {
    evaluatorPrompt: "rate",
    retrievalRounds: 2,
    fallbackModels: ["gpt_4o"],
    additionalConfig: { depth: 3 },
    enableModelComparison: false,
  },
  followUpConfig: { prompt: "Still there?", count: 2, followUpDelayHours: 24, config: { a: 1 } },
  tools: [
    { type: "form", formId: "form_1", config: { fields: ["email"] } },
    { id: "http-1", type: "http", serviceProviderId: "sp_9" },
  ],
};

describe("agents", () => {
  test("creates an agent with every field of the spec and returns it as stored", async ({
    app,
    org,
    api,
  }) => {
    const created = await createAgent(app, org, fullAgent);
    const { tools, ...rest } = fullAgent;
    expect(created).toMatchObject(rest);
    expect(created.tools).toEqual([
      { id: expect.any(String), type: "form", formId: "form_1", config: { fields: ["email"] } },
      { id: "http-1", type: "http", serviceProviderId: "sp_9" },
    ]);
    expect(created.id).toEqual(expect.any(String));
    expect(Date.parse(created.createdAt as string)).not.toBeNaN();

    const fetched = await api.agents.get(created.id);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created);
  });

  test("fills defaults for a minimal agent", async ({ api }) => {
    const response = await api.agents.create({ name: "Minimal" });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: "Minimal",
      description: "",
      modelName: "gpt_4o_mini",
      temperature: 0,
      visibility: "private",
      systemPrompt: "",
      userPrompt: "",
      handle: null,
      useSuperRetrieval: false,
      useFollowUp: false,
      useConversationalMode: false,
      promptType: "customer_support",
      promptTemplate: "",
      retrievalEvaluationConfig: {},
      followUpConfig: {},
      tools: [],
    });
  });

  test("accepts every model name of the spec", async ({ app, org }) => {
    for (const modelName of AGENT_MODEL_NAMES) {
      const agent = await createAgent(app, org, { name: `Model ${modelName}`, modelName });
      expect(agent.modelName).toBe(modelName);
    }
  });

  test("lists the organization's agents as an array, oldest first", async ({ app, api }) => {
    const other = await app.createOrganization("Other");
    const mine = await createAgent(app, other, { name: "Only one" });
    const response = await app.client(other.auth).agents.list();
    expect(response.status).toBe(200);
    expect(response.body).toEqual([expect.objectContaining({ id: mine.id, name: "Only one" })]);

    const all = (await api.agents.list()).body;
    expect(Array.isArray(all)).toBe(true);
    expect(all.map((agent: { name: string }) => agent.name).slice(0, 2)).toEqual([
      "Front desk",
      "Minimal",
    ]);
  });

  test("changes only the fields sent with PATCH", async ({ app, org, api }) => {
    const agent = await createAgent(app, org, { name: "Patchable", systemPrompt: "old" });
    const response = await api.agents.update(agent.id, {
      systemPrompt: "new",
      visibility: "public",
      handle: null,
      followUpConfig: null,
    });
    expect(response.status).toBe(200);
    const patched = response.body;
    expect(patched).toMatchObject({
      name: "Patchable",
      systemPrompt: "new",
      visibility: "public",
      followUpConfig: {},
    });
    expect(Date.parse(patched.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(agent.updatedAt as string),
    );
  });

  test("deletes an agent, which then is gone", async ({ app, org, api }) => {
    const agent = await createAgent(app, org, { name: "Short-lived" });
    const deleted = await api.agents.delete(agent.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: agent.id, name: "Short-lived" });
    const again = await api.agents.get(agent.id);
    expect(again.status).toBe(404);
    expect(again.error.type).toBe("NOT_FOUND");
  });
});

describe("datastore tools", () => {
  test("turns datastoreIds into datastore tools and keeps explicit ones", async ({
    app,
    org,
    api,
  }) => {
    const first = await createDatastore(app, org, { name: "FAQ" });
    const second = await createDatastore(app, org, { name: "Manuals" });
    const agent = await createAgent(app, org, {
      name: "Knows things",
      tools: [{ id: "ds-tool", type: "datastore", datastoreId: first.id, config: { topK: 3 } }],
      datastoreIds: [first.id, second.id],
    });
    expect(agent.tools).toEqual([
      { id: "ds-tool", type: "datastore", datastoreId: first.id, config: { topK: 3 } },
      { id: expect.any(String), type: "datastore", datastoreId: second.id },
    ]);

    const replaced = await api.agents.update(agent.id, { datastoreIds: [first.id] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.tools).toEqual([
      { id: "ds-tool", type: "datastore", datastoreId: first.id, config: { topK: 3 } },
    ]);

    const cleared = await api.agents.update(agent.id, {
      tools: [{ type: "webhook", config: { url: "https://x.example" } }],
    });
    expect(cleared.body.tools).toEqual([
      { id: expect.any(String), type: "webhook", config: { url: "https://x.example" } },
    ]);
  });

  test("keeps other tools when PATCH sends only datastoreIds", async ({ app, org, api }) => {
    const store = await createDatastore(app, org, { name: "Policies" });
    const agent = await createAgent(app, org, {
      name: "Mixed",
      tools: [{ id: "form", type: "form", formId: "f1" }],
    });
    const response = await api.agents.update(agent.id, { datastoreIds: [store.id] });
    expect(response.body.tools).toEqual([
      { id: "form", type: "form", formId: "f1" },
      { id: expect.any(String), type: "datastore", datastoreId: store.id },
    ]);
  });
});
