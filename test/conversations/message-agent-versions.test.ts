import { describe, expect } from "vitest";
import type { AgentFields } from "../harness/agents.ts";
import { createAgent } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

// Each AI answer records the agent's version it was made with (GET /api/agents/{id}/versions);
// other messages (the customer's, an operator's) record none.
const test = appTest({ orgName: "Message versions" });

async function patch(app: TestApp, org: TestOrganization, agentId: string, fields: AgentFields) {
  const response = await app.client(org.auth).agents.update(agentId, fields);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("the version of an agent message", () => {
  test("is the version the answer was made with; null for the customer's, query-agent's and an operator's", async ({
    app,
    org,
    api,
  }) => {
    const agent = await createAgent(app, org, { systemPrompt: "Version one." });
    const first = await api.agents.query(agent.id, { query: "Hello?" });
    expect(first.status).toBe(200);
    const { conversationId } = first.body;
    await patch(app, org, agent.id, { systemPrompt: "Version two." });
    const second = await api.agents.query(agent.id, { query: "Again?", conversationId });
    expect(second.status).toBe(200);
    const streamed = await api.request({
      method: "POST",
      url: `/api/agents/${agent.id}/query`,
      payload: { query: "Streamed?", conversationId, streaming: true },
    });
    expect(streamed.status).toBe(200);
    const appended = await api.agents.queryAgent(agent.id, {
      query: "Written by an integration.",
      conversationId,
    });
    expect(appended.status, appended.text).toBe(200);
    const operator = await api.request({
      method: "POST",
      url: `/api/conversations/${conversationId}/messages`,
      payload: { text: "A person here." },
    });
    expect(operator.status, operator.text).toBe(201);
    expect(operator.body.agentVersion).toBeNull();

    const conversation = await api.conversations.get(conversationId);
    expect(conversation.status).toBe(200);
    const messages = conversation.body.messages as Array<{
      from: string;
      text: string;
      agentVersion: number | null;
    }>;
    expect(messages.map(({ from, agentVersion }) => [from, agentVersion])).toEqual([
      ["human", null],
      ["agent", 1],
      ["human", null],
      ["agent", 2],
      ["human", null],
      ["agent", 2],
      ["agent", null],
      ["agent", null],
    ]);
    expect(messages.at(-1)!.text).toBe("A person here.");
  });

  test("is the restored version's number after a restore", async ({ app, org, api }) => {
    const agent = await createAgent(app, org, { systemPrompt: "Old." });
    await patch(app, org, agent.id, { systemPrompt: "New." });
    expect((await api.agents.restoreVersion(agent.id, 1)).status).toBe(200);
    const answered = await api.agents.query(agent.id, { query: "Which?" });
    const conversation = await api.conversations.get(answered.body.conversationId);
    expect(conversation.body.messages.at(-1)).toMatchObject({ from: "agent", agentVersion: 3 });
  });
});
