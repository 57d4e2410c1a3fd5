import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  startQueryTestApp,
} from "../harness/agents.ts";
import type { TestOrganization } from "../harness/app.ts";
import {
  appendAgentMessage,
  chatCalls,
  scriptFollowUp,
  sendFollowUp,
} from "./follow-up-helpers.ts";

let t: QueryTestApp;
let acme: TestOrganization;
let globex: TestOrganization;
let acmeAgentId: string;
let acmeOtherAgentId: string;
let globexAgentId: string;
let globexConversationId: string;
beforeAll(async () => {
  t = await startQueryTestApp();
  acme = await createFundedOrganization(t.app, "Acme");
  globex = await createFundedOrganization(t.app, "Globex");
  const followUpConfig = { prompt: "Check in." };
  acmeAgentId = (await createAgent(t.app, acme, { followUpConfig })).id;
  acmeOtherAgentId = (await createAgent(t.app, acme, { name: "Sales", followUpConfig })).id;
  globexAgentId = (await createAgent(t.app, globex, { followUpConfig })).id;
  ({ conversationId: globexConversationId } = await appendAgentMessage(
    t.app,
    globex,
    globexAgentId,
    {
      query: "Globex private note",
    },
  ));
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.requests.length = 0;
});

const inline = { messages: [{ from: "human", text: "Hi" }] };

describe("follow-up/query authentication", () => {
  test.each([
    ["no key", {}],
    ["an invalid key", { authorization: "Bearer not-a-key" }],
    ["a malformed header", { authorization: "Basic abc" }],
  ])("answers 403 FORBIDDEN for %s, even with a bad body", async (_, headers) => {
    for (const body of [inline, { streaming: "yes" }]) {
      const response = await sendFollowUp(t.app, null, acmeAgentId, body, headers);
      expect(response.status).toBe(403);
      expect(response.error).toMatchObject({ type: "FORBIDDEN", requestId: expect.any(String) });
    }
    expect(chatCalls(t.fake.requests)).toHaveLength(0);
  });

  test("answers 401 for an agent of another organization, and 404 NOT_FOUND for no agent", async () => {
    const other = await sendFollowUp(t.app, acme, globexAgentId, inline);
    expect(other.status).toBe(401);
    expect(other.error.type).toBe("UNAUTHORIZED");
    const missing = await sendFollowUp(t.app, acme, "no-such-agent", inline);
    expect(missing.status).toBe(404);
    expect(missing.error.type).toBe("NOT_FOUND");
    expect(chatCalls(t.fake.requests)).toHaveLength(0);
  });

  test("answers 404 CONVERSATION_NOT_FOUND for an unknown, foreign or other agent's conversation", async () => {
    const { conversationId: salesConversation } = await appendAgentMessage(
      t.app,
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
      const response = await sendFollowUp(t.app, acme, acmeAgentId, { conversationId });
      expect(response.status).toBe(404);
      expect(response.error.type).toBe("CONVERSATION_NOT_FOUND");
      expect(response.text).not.toContain("Globex private note");
    }
    expect(chatCalls(t.fake.requests)).toHaveLength(0);
  });
});

describe("follow-up/query billing", () => {
  test("answers 402 USAGE_LIMIT when the organization cannot run, without calling the model", async () => {
    const blocked = await createFundedOrganization(t.app, "Overdue");
    const agentId = (await createAgent(t.app, blocked, { followUpConfig: { prompt: "Check in." } }))
      .id;
    const patched = await t.app.admin.admin.updateBilling(blocked.id, {
      subscriptionStatus: "past_due",
    });
    expect(patched.status).toBe(200);
    const response = await sendFollowUp(t.app, blocked, agentId, inline);
    expect(response.status).toBe(402);
    expect(response.error.type).toBe("USAGE_LIMIT");
    expect(chatCalls(t.fake.requests)).toHaveLength(0);
  });

  test("counts against the free plan's messages like any agent message", async () => {
    const free = await t.app.createOrganization("Free");
    const agentId = (await createAgent(t.app, free, { followUpConfig: { prompt: "Check in." } }))
      .id;
    for (let call = 0; call < 5; call += 1) {
      scriptFollowUp(t.fake, { calls: 1 });
      const response = await sendFollowUp(t.app, free, agentId, { ...inline, skipFilter: true });
      expect(response.status).toBe(200);
    }
    const sixth = await sendFollowUp(t.app, free, agentId, { ...inline, skipFilter: true });
    expect(sixth.status).toBe(402);
    expect(sixth.error.type).toBe("USAGE_LIMIT");
  });
});
