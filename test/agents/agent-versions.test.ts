import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { agentVersions } from "../../src/db/schema/index.ts";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { memberOf } from "../harness/accounts.ts";
import { type AgentFields, createAgent } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { createDatastore } from "../knowledge/knowledge-helpers.ts";

const test = appTest({ orgName: "Versions" });

/** The system prompt of the model call the latest query made. */
function lastSystemPrompt(fake: FakeOpenAI): string {
  const messages = (fake.requests.at(-1)?.body?.messages ?? []) as Array<{
    role: string;
    content: string;
  }>;
  return messages.find((message) => message.role === "system")?.content ?? "";
}

async function versionsOf(app: TestApp, org: TestOrganization, agentId: string) {
  const response = await app.client(org.auth).agents.versions(agentId);
  expect(response.status, response.text).toBe(200);
  return response.body.versions;
}

async function patch(app: TestApp, org: TestOrganization, agentId: string, fields: AgentFields) {
  const response = await app.client(org.auth).agents.update(agentId, fields);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("versions of an agent", () => {
  test("start with version 1 holding the fields it was created with, by its author", async ({
    app,
    org,
  }) => {
    const agent = await createAgent(app, org, {
      systemPrompt: "Be brief.",
      temperature: 0.3,
      tools: [{ id: "form-1", type: "form", formId: "f1" }],
    });
    expect(agent.version).toBe(1);
    const versions = await versionsOf(app, org, agent.id);
    expect(versions).toEqual([
      {
        version: 1,
        author: { type: "key", id: org.apiKeyId },
        createdAt: agent.createdAt,
        fields: {
          modelName: "gpt_4o_mini",
          temperature: 0.3,
          systemPrompt: "Be brief.",
          userPrompt: "",
          promptType: "customer_support",
          promptTemplate: "",
          tools: [{ id: "form-1", type: "form", formId: "f1" }],
          useSuperRetrieval: false,
          retrievalEvaluationConfig: {},
        },
      },
    ]);
    const one = await app.client(org.auth).agents.version(agent.id, 1);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(versions[0]);
  });

  test("are made by each change of an answer-affecting field, and by nothing else", async ({
    app,
    org,
  }) => {
    const datastore = await createDatastore(app, org, { name: "Manuals" });
    const agent = await createAgent(app, org, {
      systemPrompt: "Be brief.",
      datastoreIds: [datastore.id],
    });
    // Fields that do not decide the answer, and answer-affecting ones set to what they are.
    const unversioned: AgentFields[] = [
      { name: "Renamed" },
      { description: "Sells things" },
      { visibility: "public" },
      { handle: "sales" },
      { useFollowUp: true, followUpConfig: { prompt: "Still there?" } },
      { useConversationalMode: true },
      { useConversationalMode: false },
      { allowedOrigins: ["https://shop.example.com"] },
      { unavailableMessage: "Back soon." },
      { systemPrompt: "Be brief." },
      { temperature: 0, modelName: "gpt_4o_mini", promptType: "customer_support" },
      { retrievalEvaluationConfig: null },
      { retrievalEvaluationConfig: {} },
      { datastoreIds: [datastore.id] },
    ];
    for (const fields of unversioned) {
      const changed = await patch(app, org, agent.id, fields);
      expect(changed.version, JSON.stringify(fields)).toBe(1);
    }
    expect((await versionsOf(app, org, agent.id)).map((version) => version.version)).toEqual([1]);

    const versioned: Array<[AgentFields, Partial<Record<string, unknown>>]> = [
      [{ systemPrompt: "Be thorough." }, { systemPrompt: "Be thorough." }],
      [{ temperature: 0.7 }, { temperature: 0.7 }],
      [{ modelName: "gpt_4o" }, { modelName: "gpt_4o" }],
      [{ userPrompt: "Q: {query}" }, { userPrompt: "Q: {query}" }],
      [{ promptType: "raw" }, { promptType: "raw" }],
      [{ promptTemplate: "{context}" }, { promptTemplate: "{context}" }],
      [{ useSuperRetrieval: true }, { useSuperRetrieval: true }],
      [
        { retrievalEvaluationConfig: { retrievalRounds: 3 } },
        { retrievalEvaluationConfig: { retrievalRounds: 3 } },
      ],
      [{ datastoreIds: [] }, { tools: [] }],
      // With the name too: one change, one version.
      [{ name: "Again", systemPrompt: "Be kind." }, { systemPrompt: "Be kind." }],
    ];
    for (const [index, [fields, recorded]] of versioned.entries()) {
      const changed = await patch(app, org, agent.id, fields);
      expect(changed.version, JSON.stringify(fields)).toBe(index + 2);
      const version = await app.client(org.auth).agents.version(agent.id, index + 2);
      expect(version.status).toBe(200);
      expect(version.body.fields).toMatchObject(recorded);
      expect(version.body.createdAt).toBe(changed.updatedAt);
    }
    const versions = await versionsOf(app, org, agent.id);
    expect(versions.map((version) => version.version)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const current = (await app.client(org.auth).agents.get(agent.id)).body;
    expect(current.version).toBe(11);
    expect(versions[0]!.fields).toEqual({
      modelName: current.modelName,
      temperature: current.temperature,
      systemPrompt: current.systemPrompt,
      userPrompt: current.userPrompt,
      promptType: current.promptType,
      promptTemplate: current.promptTemplate,
      tools: current.tools,
      useSuperRetrieval: current.useSuperRetrieval,
      retrievalEvaluationConfig: current.retrievalEvaluationConfig,
    });
  });

  test("record a signed-in user as the author, a key as the key", async ({ app, org }) => {
    const admin = await memberOf(app, org, "admin");
    const agent = await createAgent(app, org);
    const bySession = await app.client(admin.headers).agents.update(agent.id, {
      systemPrompt: "Written by a person.",
    });
    expect(bySession.status, bySession.text).toBe(200);
    await patch(app, org, agent.id, { systemPrompt: "Written by an integration." });
    const created = await app.client(admin.headers).agents.create({ name: "Theirs" });
    expect(created.status, created.text).toBe(201);

    expect(
      (await versionsOf(app, org, agent.id)).map(({ version, author }) => ({ version, author })),
    ).toEqual([
      { version: 3, author: { type: "key", id: org.apiKeyId } },
      { version: 2, author: { type: "user", id: admin.userId } },
      { version: 1, author: { type: "key", id: org.apiKeyId } },
    ]);
    expect((await versionsOf(app, org, created.body.id))[0]!.author).toEqual({
      type: "user",
      id: admin.userId,
    });
  });

  test("are numbered without gap or repeat, each the one before plus its change, when changes arrive together", async ({
    app,
    org,
  }) => {
    const agent = await createAgent(app, org);
    // Half change the prompt, half the temperature: a version made from a stale read of the
    // agent would lose the other field's latest value.
    const changes: AgentFields[] = Array.from({ length: 10 }, (_, index) =>
      index % 2 === 0 ? { systemPrompt: `Prompt number ${index}` } : { temperature: index / 10 },
    );
    const responses = await Promise.all(
      changes.map((fields) => app.client(org.auth).agents.update(agent.id, fields)),
    );
    expect(responses.map((response) => response.status)).toEqual(changes.map(() => 200));
    expect(responses.map((response) => response.body.version).sort((a, b) => a - b)).toEqual([
      2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    ]);
    const versions = await versionsOf(app, org, agent.id);
    expect(versions.map((version) => version.version)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const byNumber = new Map(versions.map((version) => [version.version, version.fields]));
    for (const [index, response] of responses.entries()) {
      const made = byNumber.get(response.body.version)!;
      const before = byNumber.get(response.body.version - 1)!;
      expect(made).toEqual({ ...before, ...changes[index] });
      expect(made).toMatchObject({
        systemPrompt: response.body.systemPrompt,
        temperature: response.body.temperature,
      });
    }
    const current = (await app.client(org.auth).agents.get(agent.id)).body;
    expect(current.version).toBe(11);
    expect(versions[0]!.fields).toMatchObject({
      systemPrompt: current.systemPrompt,
      temperature: current.temperature,
    });
  });

  test("are deleted with their agent", async ({ app, org }) => {
    const agent = await createAgent(app, org);
    await patch(app, org, agent.id, { systemPrompt: "Soon gone." });
    const stored = () =>
      app.database.db.select().from(agentVersions).where(eq(agentVersions.agentId, agent.id));
    expect((await stored()).length).toBe(2);
    expect((await app.client(org.auth).agents.delete(agent.id)).status).toBe(200);
    expect((await app.client(org.auth).agents.versions(agent.id)).status).toBe(404);
    expect(await stored()).toEqual([]);
  });
});

describe("restoring a version", () => {
  test("makes a new version with its fields, and the answers follow them", async ({
    app,
    org,
    fake,
  }) => {
    const agent = await createAgent(app, org, { systemPrompt: "Mention the order number." });
    await patch(app, org, agent.id, { systemPrompt: "Answer in French.", temperature: 0.9 });
    await patch(app, org, agent.id, { name: "Renamed" });

    const restored = await app.client(org.auth).agents.restoreVersion(agent.id, 1);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({
      id: agent.id,
      name: "Renamed",
      systemPrompt: "Mention the order number.",
      temperature: 0,
      version: 3,
    });
    expect((await app.client(org.auth).agents.get(agent.id)).body).toEqual(restored.body);
    const versions = await versionsOf(app, org, agent.id);
    expect(versions.map((version) => version.version)).toEqual([3, 2, 1]);
    expect(versions[0]!.fields).toEqual(versions[2]!.fields);
    expect(versions[0]!.author).toEqual({ type: "key", id: org.apiKeyId });

    const answered = await app.client(org.auth).agents.query(agent.id, { query: "Where is it?" });
    expect(answered.status).toBe(200);
    expect(lastSystemPrompt(fake)).toContain("Mention the order number.");
    expect(lastSystemPrompt(fake)).not.toContain("Answer in French.");
  });

  test("of the fields the agent has makes no version", async ({ app, org }) => {
    const agent = await createAgent(app, org, { systemPrompt: "One." });
    await patch(app, org, agent.id, { systemPrompt: "Two." });
    const before = (await app.client(org.auth).agents.get(agent.id)).body;
    const restored = await app.client(org.auth).agents.restoreVersion(agent.id, 2);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual(before);
    expect(restored.body).toMatchObject({ systemPrompt: "Two.", version: 2 });
    expect((await versionsOf(app, org, agent.id)).length).toBe(2);
  });

  test("leaves out the datastores deleted since", async ({ app, org }) => {
    const kept = await createDatastore(app, org, { name: "Kept" });
    const deleted = await createDatastore(app, org, { name: "Deleted" });
    const agent = await createAgent(app, org, {
      systemPrompt: "Use the manuals.",
      datastoreIds: [kept.id, deleted.id],
    });
    await patch(app, org, agent.id, { systemPrompt: "No manuals.", datastoreIds: [] });
    expect((await app.client(org.auth).datastores.delete(deleted.id)).status).toBe(200);

    const restored = await app.client(org.auth).agents.restoreVersion(agent.id, 1);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.version).toBe(3);
    expect(restored.body.systemPrompt).toBe("Use the manuals.");
    expect(restored.body.tools).toEqual([
      { id: agent.tools[0]!.id, type: "datastore", datastoreId: kept.id },
    ]);
    const version = await app.client(org.auth).agents.version(agent.id, 3);
    expect(version.body.fields.tools).toEqual(restored.body.tools);
    // Version 1 itself is never changed.
    const first = await app.client(org.auth).agents.version(agent.id, 1);
    expect(first.body.fields.tools.map((tool) => tool.datastoreId)).toEqual([kept.id, deleted.id]);
  });
});
