import { describe, expect } from "vitest";
import { sha256Hex } from "../../src/lib/secrets.ts";
import { startTestApp } from "../harness/app.ts";
import { createTestDatabaseFromMigration } from "../harness/database.ts";
import { databaseTest } from "../harness/fixtures.ts";

// Agents stored before versions existed (migration 0039) get their version 1 from the fields they
// have; their earlier messages have no version.
const API_KEY = "adk_before-versions-key";
const auth = { authorization: `Bearer ${API_KEY}` };
const TOOLS = [{ id: "tool-1", type: "form", formId: "form-1" }];

const test = databaseTest(() =>
  createTestDatabaseFromMigration("0038_event_subscriptions", async (execute) => {
    await execute(`
      insert into organizations (id, name) values ('org-old', 'Old');
      insert into users (id, email) values ('user-old', 'old@example.com');
      insert into memberships (organization_id, user_id) values ('org-old', 'user-old');
      insert into api_keys (id, organization_id, user_id, key_hash, key_prefix)
        values ('key-old', 'org-old', 'user-old', '${sha256Hex(API_KEY)}', 'adk_before');
      insert into agents (id, organization_id, name, model_name, temperature, system_prompt,
        prompt_type, tools, use_super_retrieval, retrieval_evaluation_config, updated_at)
        values
        ('agent-configured', 'org-old', 'Configured', 'gpt_4o', 0.5, 'Be brief.', 'raw',
          '${JSON.stringify(TOOLS)}', true, '{"retrievalRounds": 3}', '2025-03-04T05:06:07Z'),
        ('agent-plain', 'org-old', 'Plain', 'gpt_4o_mini', 0, '', 'customer_support', '[]',
          false, null, '2025-01-01T00:00:00Z');
      insert into conversations (id, external_id, organization_id, agent_id, visitor_id, channel)
        values ('conversation-old', 'conversation-old', 'org-old', 'agent-plain', 'v-1', 'api');
      insert into messages (id, organization_id, conversation_id, agent_id, "from", text)
        values ('message-old', 'org-old', 'conversation-old', 'agent-plain', 'agent', 'Hi.');
    `);
  }),
)
  .extend("app", { scope: "file" }, async ({ database }, { onCleanup }) => {
    const app = await startTestApp({ database });
    onCleanup(() => app.close());
    return app;
  })
  .extend("api", { scope: "file" }, ({ app }) => app.client(auth));

// Migrated from scratch, then started: under a hook's time limit rather than the first test's.
test.beforeAll(({ app }) => {
  void app;
});

describe("agents from before migration 0039", () => {
  test("have version 1 with the fields they had, no author, dated by their last change", async ({
    api,
  }) => {
    const configured = await api.agents.get("agent-configured");
    expect(configured.status).toBe(200);
    expect(configured.body.version).toBe(1);
    const versions = await api.agents.versions("agent-configured");
    expect(versions.status).toBe(200);
    expect(versions.body.versions).toEqual([
      {
        version: 1,
        author: null,
        createdAt: "2025-03-04T05:06:07.000Z",
        fields: {
          modelName: "gpt_4o",
          temperature: 0.5,
          systemPrompt: "Be brief.",
          userPrompt: "",
          promptType: "raw",
          promptTemplate: "",
          tools: TOOLS,
          useSuperRetrieval: true,
          retrievalEvaluationConfig: { retrievalRounds: 3 },
        },
      },
    ]);
    const plain = await api.agents.version("agent-plain", 1);
    expect(plain.status).toBe(200);
    expect(plain.body.fields).toMatchObject({ retrievalEvaluationConfig: {}, tools: [] });
  });

  test("keep their earlier messages without a version, and version on from 1", async ({ api }) => {
    const conversation = await api.conversations.get("conversation-old");
    expect(conversation.status).toBe(200);
    expect(conversation.body.messages).toMatchObject([{ id: "message-old", agentVersion: null }]);

    const changed = await api.agents.update("agent-plain", { systemPrompt: "Now versioned." });
    expect(changed.status).toBe(200);
    expect(changed.body.version).toBe(2);
    const restored = await api.agents.restoreVersion("agent-plain", 1);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ version: 3, systemPrompt: "" });
  });
});
