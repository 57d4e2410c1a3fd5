import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { conversations } from "../../src/db/schema/index.ts";
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
let org: TestOrganization;
let agentId: string;
let promptlessAgentId: string;
let conversationId: string;
beforeAll(async () => {
  t = await startQueryTestApp();
  org = await createFundedOrganization(t.app);
  agentId = (await createAgent(t.app, org, { followUpConfig: { prompt: "Check in politely." } }))
    .id;
  promptlessAgentId = (await createAgent(t.app, org, { name: "No prompt" })).id;
  ({ conversationId } = await appendAgentMessage(t.app, org, agentId, { query: "Hello there." }));
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.requests.length = 0;
});

const inline = [{ from: "human", text: "Hi" }];

async function expect400(body: Record<string, unknown>, message: RegExp, target = agentId) {
  const response = await sendFollowUp(t.app, org, target, body);
  expect(response.status).toBe(400);
  const error = response.error;
  expect(error).toMatchObject({ type: "INVALID_REQUEST", requestId: expect.any(String) });
  expect(`${error.error} ${JSON.stringify(error.details ?? [])}`).toMatch(message);
  // Nothing was generated for a refused request.
  expect(chatCalls(t.fake.requests)).toHaveLength(0);
  return error;
}

describe("follow-up/query refuses what the spec refuses with 400", () => {
  test("needs exactly one of conversationId and messages", async () => {
    await expect400({}, /exactly one of conversationId or messages/);
    await expect400(
      { conversationId, messages: inline },
      /exactly one of conversationId or messages/,
    );
  });

  test("takes 1 to 50 inline messages", async () => {
    await expect400({ messages: [] }, /1 to 50/);
    const many = Array.from({ length: 51 }, (_, index) => ({ from: "human", text: `m${index}` }));
    await expect400({ messages: many }, /1 to 50/);
  });

  test("takes only human or agent as from, and both fields as strings", async () => {
    await expect400({ messages: [{ from: "bot", text: "Hi" }] }, /human.*agent/);
    await expect400({ messages: [{ from: "human" }] }, /messages\.0\.text/);
    await expect400({ messages: [{ text: "Hi" }] }, /messages\.0\.from/);
    await expect400({ messages: [{ from: "human", text: 42 }] }, /messages\.0\.text/);
  });

  test("refuses saveToConversation without a conversationId", async () => {
    await expect400(
      { messages: inline, saveToConversation: true },
      /saveToConversation needs a conversationId/,
    );
  });

  test("refuses streaming true", async () => {
    await expect400({ messages: inline, streaming: true }, /does not stream/);
  });

  test("refuses an agent without a follow-up prompt when the request has none", async () => {
    await expect400({ messages: inline }, /No follow-up prompt/, promptlessAgentId);
    await expect400({ messages: inline, prompt: "   " }, /No follow-up prompt/, promptlessAgentId);
  });

  test("refuses a conversation without messages", async () => {
    await t.app.database.db.insert(conversations).values({
      id: "empty-conversation",
      externalId: "empty-conversation",
      organizationId: org.id,
      agentId,
      visitorId: "visitor-empty",
      channel: "api",
    });
    await expect400({ conversationId: "empty-conversation" }, /has no messages/);
  });

  test.each(["whatsapp", "meta", "chatwoot", "crmchatsappai"])(
    "refuses saveToConversation on a %s conversation, and allows the same preview without saving",
    async (channel) => {
      const id = channel === "crmchatsappai" ? "crmchatsappai_acct_42" : `conversation-${channel}`;
      await appendAgentMessage(t.app, org, agentId, { query: "Hi", conversationId: id, channel });
      await expect400(
        { conversationId: id, saveToConversation: true },
        new RegExp(`on ${channel}`),
      );

      scriptFollowUp(t.fake, {});
      const preview = await sendFollowUp(t.app, org, agentId, { conversationId: id });
      expect(preview.status).toBe(200);
      expect(preview.body.messageId).toBeNull();
    },
  );
});
