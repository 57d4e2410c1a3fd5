import { describe, expect } from "vitest";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import {
  appendAgentMessage,
  chatCalls,
  scriptFollowUp,
  sendFollowUp,
} from "./follow-up-helpers.ts";

const followUpConfig = { prompt: "Check in." };
const test = appTest({ orgName: "Acme", agent: { followUpConfig } });

let globex: TestOrganization;
let acmeOtherAgentId: string;
let globexAgentId: string;
let globexConversationId: string;
test.beforeAll(async ({ app, org: acme }) => {
  globex = await createFundedOrganization(app, "Globex");
  acmeOtherAgentId = (await createAgent(app, acme, { name: "Sales", followUpConfig })).id;
  globexAgentId = (await createAgent(app, globex, { followUpConfig })).id;
  ({ conversationId: globexConversationId } = await appendAgentMessage(app, globex, globexAgentId, {
    query: "Globex private note",
  }));
});

const inline = { messages: [{ from: "human", text: "Hi" }] };

describe("follow-up/query authentication", () => {
  test.for([
    ["no key", {}],
    ["an invalid key", { authorization: "Bearer not-a-key" }],
    ["a malformed header", { authorization: "Basic abc" }],
  ] as const)(
    "answers 403 FORBIDDEN for %s, even with a bad body",
    async ([_, headers], { app, agent, fake }) => {
      for (const body of [inline, { streaming: "yes" }]) {
        const response = await sendFollowUp(app, null, agent.id, body, headers);
        expect(response.status).toBe(403);
        expect(response.error).toMatchObject({ type: "FORBIDDEN", requestId: expect.any(String) });
      }
      expect(chatCalls(fake.requests)).toHaveLength(0);
    },
  );

  test("answers 401 for an agent of another organization, and 404 NOT_FOUND for no agent", async ({
    app,
    org: acme,
    fake,
  }) => {
    const other = await sendFollowUp(app, acme, globexAgentId, inline);
    expect(other.status).toBe(401);
    expect(other.error.type).toBe("UNAUTHORIZED");
    const missing = await sendFollowUp(app, acme, "no-such-agent", inline);
    expect(missing.status).toBe(404);
    expect(missing.error.type).toBe("NOT_FOUND");
    expect(chatCalls(fake.requests)).toHaveLength(0);
  });

  test("answers 404 CONVERSATION_NOT_FOUND for an unknown, foreign or other agent's conversation", async ({
    app,
    org: acme,
    agent,
    fake,
  }) => {
    const { conversationId: salesConversation } = await appendAgentMessage(
      app,
      acme,
      acmeOtherAgentId,
      {
        query: "Sales note",
      },
    );
    for (const conversationId of [
      "no-such-conversation",
      globexConversationId,
      salesConversation,
    ]) {
      const response = await sendFollowUp(app, acme, agent.id, { conversationId });
      expect(response.status).toBe(404);
      expect(response.error.type).toBe("CONVERSATION_NOT_FOUND");
      expect(response.text).not.toContain("Globex private note");
    }
    expect(chatCalls(fake.requests)).toHaveLength(0);
  });
});

describe("follow-up/query billing", () => {
  test("answers 402 USAGE_LIMIT when the organization cannot run, without calling the model", async ({
    app,
    fake,
  }) => {
    const blocked = await createFundedOrganization(app, "Overdue");
    const agentId = (await createAgent(app, blocked, { followUpConfig: { prompt: "Check in." } }))
      .id;
    const patched = await app.admin.admin.updateBilling(blocked.id, {
      subscriptionStatus: "past_due",
    });
    expect(patched.status).toBe(200);
    const response = await sendFollowUp(app, blocked, agentId, inline);
    expect(response.status).toBe(402);
    expect(response.error.type).toBe("USAGE_LIMIT");
    expect(chatCalls(fake.requests)).toHaveLength(0);
  });

  test("counts against the free plan's messages like any agent message", async ({ app, fake }) => {
    const free = await app.createOrganization("Free");
    const agentId = (await createAgent(app, free, { followUpConfig: { prompt: "Check in." } })).id;
    for (let call = 0; call < 5; call += 1) {
      scriptFollowUp(fake, { calls: 1 });
      const response = await sendFollowUp(app, free, agentId, { ...inline, skipFilter: true });
      expect(response.status).toBe(200);
    }
    const sixth = await sendFollowUp(app, free, agentId, { ...inline, skipFilter: true });
    expect(sixth.status).toBe(402);
    expect(sixth.error.type).toBe("USAGE_LIMIT");
  });
});
