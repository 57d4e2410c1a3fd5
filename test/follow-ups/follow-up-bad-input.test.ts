import { describe, expect } from "vitest";
import { conversations } from "../../src/db/schema/index.ts";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import {
  appendAgentMessage,
  chatCalls,
  scriptFollowUp,
  sendFollowUp,
} from "./follow-up-helpers.ts";

const test = appTest({ agent: { followUpConfig: { prompt: "Check in politely." } } }).extend(
  "expect400",
  { scope: "file" },
  ({ app, org, agent, fake }) =>
    async (body: Record<string, unknown>, message: RegExp, target = agent.id) => {
      const response = await sendFollowUp(app, org, target, body);
      expect(response.status).toBe(400);
      const error = response.error;
      expect(error).toMatchObject({ type: "INVALID_REQUEST", requestId: expect.any(String) });
      expect(`${error.error} ${JSON.stringify(error.details ?? [])}`).toMatch(message);
      // Nothing was generated for a refused request.
      expect(chatCalls(fake.requests)).toHaveLength(0);
      return error;
    },
);

let promptlessAgentId: string;
let conversationId: string;
test.beforeAll(async ({ app, org, agent }) => {
  promptlessAgentId = (await createAgent(app, org, { name: "No prompt" })).id;
  ({ conversationId } = await appendAgentMessage(app, org, agent.id, { query: "Hello there." }));
});

const inline = [{ from: "human", text: "Hi" }];

describe("follow-up/query refuses what the spec refuses with 400", () => {
  test("needs exactly one of conversationId and messages", async ({ expect400 }) => {
    await expect400({}, /exactly one of conversationId or messages/);
    await expect400(
      { conversationId, messages: inline },
      /exactly one of conversationId or messages/,
    );
  });

  test("takes 1 to 50 inline messages", async ({ expect400 }) => {
    await expect400({ messages: [] }, /1 to 50/);
    const many = Array.from({ length: 51 }, (_, index) => ({ from: "human", text: `m${index}` }));
    await expect400({ messages: many }, /1 to 50/);
  });

  test("takes only human or agent as from, and both fields as strings", async ({ expect400 }) => {
    await expect400({ messages: [{ from: "bot", text: "Hi" }] }, /human.*agent/);
    await expect400({ messages: [{ from: "human" }] }, /messages\.0\.text/);
    await expect400({ messages: [{ text: "Hi" }] }, /messages\.0\.from/);
    await expect400({ messages: [{ from: "human", text: 42 }] }, /messages\.0\.text/);
  });

  test("refuses saveToConversation without a conversationId", async ({ expect400 }) => {
    await expect400(
      { messages: inline, saveToConversation: true },
      /saveToConversation needs a conversationId/,
    );
  });

  test("refuses streaming true", async ({ expect400 }) => {
    await expect400({ messages: inline, streaming: true }, /does not stream/);
  });

  test("refuses an agent without a follow-up prompt when the request has none", async ({
    expect400,
  }) => {
    await expect400({ messages: inline }, /No follow-up prompt/, promptlessAgentId);
    await expect400({ messages: inline, prompt: "   " }, /No follow-up prompt/, promptlessAgentId);
  });

  test("refuses a conversation without messages", async ({ app, org, agent, expect400 }) => {
    await app.database.db.insert(conversations).values({
      id: "empty-conversation",
      externalId: "empty-conversation",
      organizationId: org.id,
      agentId: agent.id,
      visitorId: "visitor-empty",
      channel: "api",
    });
    await expect400({ conversationId: "empty-conversation" }, /has no messages/);
  });

  test.for(["whatsapp", "meta", "chatwoot", "crmchatsappai"])(
    "refuses saveToConversation on a %s conversation, and allows the same preview without saving",
    async (channel, { app, org, agent, fake, expect400 }) => {
      const id = channel === "crmchatsappai" ? "crmchatsappai_acct_42" : `conversation-${channel}`;
      await appendAgentMessage(app, org, agent.id, { query: "Hi", conversationId: id, channel });
      await expect400(
        { conversationId: id, saveToConversation: true },
        new RegExp(`on ${channel}`),
      );

      scriptFollowUp(fake, {});
      const preview = await sendFollowUp(app, org, agent.id, { conversationId: id });
      expect(preview.status).toBe(200);
      expect(preview.body.messageId).toBeNull();
    },
  );
});
