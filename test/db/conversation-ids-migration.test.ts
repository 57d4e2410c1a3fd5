import { parse } from "csv-parse/sync";
import { describe, expect } from "vitest";
import { sha256Hex } from "../../src/lib/secrets.ts";
import { createAgent } from "../harness/agents.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { createTestDatabaseFromMigration } from "../harness/database.ts";
import { databaseTest } from "../harness/fixtures.ts";

// Conversations stored before conversation ids were scoped to their organization and agent
// (migrations 0015 to 0017) stay reachable by the ids their clients know, everywhere.
const API_KEY = "adk_legacy-test-key";
const auth = { authorization: `Bearer ${API_KEY}` };
const CRM_ID = "crmchatsappai_1_2";

const test = databaseTest(() =>
  createTestDatabaseFromMigration("0014_agents_changed_notify", async (execute) => {
    await execute(`
      insert into organizations (id, name) values ('org-legacy', 'Legacy');
      insert into users (id, email) values ('user-legacy', 'legacy@example.com');
      insert into memberships (organization_id, user_id) values ('org-legacy', 'user-legacy');
      insert into api_keys (id, organization_id, user_id, key_hash, key_prefix)
        values ('key-legacy', 'org-legacy', 'user-legacy', '${sha256Hex(API_KEY)}', 'adk_legacy');
      insert into agents (id, organization_id, name, model_name, visibility)
        values ('agent-legacy', 'org-legacy', 'Legacy desk', 'gpt_4o_mini', 'public');
      insert into conversations (id, organization_id, agent_id, visitor_id, channel) values
        ('${CRM_ID}', 'org-legacy', 'agent-legacy', '${CRM_ID}', 'crmchatsappai'),
        ('legacy-widget', 'org-legacy', 'agent-legacy', 'visitor-9', 'website');
      insert into messages (id, organization_id, conversation_id, agent_id, "from", text, created_at)
      values
        ('m-1', 'org-legacy', '${CRM_ID}', 'agent-legacy', 'human', 'Where is my parcel?',
          '2024-01-01T00:00:00Z'),
        ('m-2', 'org-legacy', '${CRM_ID}', 'agent-legacy', 'agent', 'On its way.',
          '2024-01-01T00:00:01Z'),
        ('m-3', 'org-legacy', 'legacy-widget', 'agent-legacy', 'agent', 'Welcome back',
          '2024-01-01T00:00:02Z');
      insert into annotations (id, organization_id, message_id, conversation_id, agent_id, comment,
        sentiment)
        values ('annotation-legacy', 'org-legacy', 'm-2', '${CRM_ID}', 'agent-legacy', 'Good',
          'good');
      insert into consumption_events (id, organization_id, agent_id, feature, provider, model_name,
        credits_charged_micro, credits_charged_raw_micro, credits_requested_micro, occurred_at,
        conversation_id, message_id)
        values ('event-legacy', 'org-legacy', 'agent-legacy', 'chat', 'openai', 'gpt-4o-mini', 0, 0,
          0, '2024-01-01T00:00:01Z', '${CRM_ID}', 'm-2');
    `);
  }),
).extend("app", { scope: "file" }, async ({ database }, { onCleanup }) => {
  const app = await startTestApp({ database });
  onCleanup(() => app.close());
  return app;
});

// Migrated from scratch, then started: under a hook's time limit rather than the first test's.
test.beforeAll(({ app }) => {
  void app;
});

const get = (app: TestApp, url: string) => app.api.inject({ url, headers: auth });
const textsOf = (body: { messages: Array<{ text: string }> }) =>
  body.messages.map((message) => message.text);

describe("conversations from before migration 0015", () => {
  test("are read, listed and exported under the ids clients know", async ({ app }) => {
    const read = await get(app, `/api/conversations/${CRM_ID}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: CRM_ID, agentId: "agent-legacy" });
    expect(textsOf(read.json())).toEqual(["Where is my parcel?", "On its way."]);
    const listed = (await get(app, "/api/conversations?agentId=agent-legacy")).json().data;
    expect(listed.map((conversation: { id: string }) => conversation.id).sort()).toEqual([
      CRM_ID,
      "legacy-widget",
    ]);
    const exported = await get(
      app,
      `/api/agents/agent-legacy/conversations-export?conversationId=${CRM_ID}`,
    );
    expect((parse(exported.body) as string[][]).slice(1).map((row) => row.slice(0, 3))).toEqual([
      [CRM_ID, "human", "Where is my parcel?"],
      [CRM_ID, "agent", "On its way."],
    ]);
  });

  test("keep their annotations and consumption events under those ids", async ({ app }) => {
    const annotations = (await get(app, `/api/annotations?conversationId=${CRM_ID}`)).json();
    expect(annotations).toEqual([
      expect.objectContaining({ id: "annotation-legacy", conversationId: CRM_ID }),
    ]);
    const events = (await get(app, `/api/consumption-events?conversationId=${CRM_ID}`)).json().data;
    expect(events).toEqual([
      expect.objectContaining({ id: "event-legacy", conversationId: CRM_ID }),
    ]);
  });

  test("are continued by the ids clients know", async ({ app }) => {
    const response = await app.api.inject({
      method: "POST",
      url: "/api/agents/agent-legacy/query-agent",
      headers: auth,
      payload: { query: "Delivered today.", conversationId: CRM_ID },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ conversationId: CRM_ID, visitorId: CRM_ID });
    expect(textsOf((await get(app, `/api/conversations/${CRM_ID}`)).json())).toEqual([
      "Where is my parcel?",
      "On its way.",
      "Delivered today.",
    ]);
  });

  test("take no message without a key, even with their visitorId", async ({ app }) => {
    const response = await app.api.inject({
      method: "POST",
      url: "/api/agents/agent-legacy/query-agent",
      payload: { query: "Anonymous", conversationId: "legacy-widget", visitorId: "visitor-9" },
    });
    expect(response.statusCode).toBe(401);
    expect(textsOf((await get(app, "/api/conversations/legacy-widget")).json())).toEqual([
      "Welcome back",
    ]);
  });

  test("no longer keep another organization from using the same ids", async ({ app }) => {
    const other = await app.createOrganization("Newcomer");
    const agent = await createAgent(app, other);
    const response = await app.api.inject({
      method: "POST",
      url: `/api/agents/${agent.id}/query-agent`,
      headers: other.auth,
      payload: { query: "Hello from the newcomer", conversationId: CRM_ID },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().conversationId).toBe(CRM_ID);
    const theirs = await app.api.inject({
      url: `/api/conversations/${CRM_ID}`,
      headers: other.auth,
    });
    expect(textsOf(theirs.json())).toEqual(["Hello from the newcomer"]);
    expect(textsOf((await get(app, `/api/conversations/${CRM_ID}`)).json())).toHaveLength(3);
  });
});
