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
  isClassification,
  scriptFollowUp,
  sendFollowUp,
  writerPrompt,
} from "./follow-up-helpers.ts";

const SAVED_PROMPT = "Remind the customer kindly about their open order.";

let t: QueryTestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startQueryTestApp();
  org = await createFundedOrganization(t.app);
  agentId = (
    await createAgent(t.app, org, {
      name: "Kestrel Support",
      useFollowUp: true,
      followUpConfig: { prompt: SAVED_PROMPT, count: 2, followUpDelayHours: 24 },
    })
  ).id;
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.requests.length = 0;
});

async function getAgent() {
  const response = await t.app.client(org.auth).agents.get(agentId);
  expect(response.status).toBe(200);
  return response.body;
}

async function conversation(id: string) {
  const response = await t.app.client(org.auth).conversations.get(id);
  expect(response.status).toBe(200);
  return response.body;
}

async function followUpEvents() {
  const response = await t.app.client(org.auth).consumptionEvents.list({ feature: "follow_up" });
  expect(response.status).toBe(200);
  return response.body.data as Array<Record<string, unknown>>;
}

describe("the follow-up agent on a stored conversation", () => {
  test("reads the last 24 messages, classifies, writes, bills only the writing and stores nothing", async () => {
    const conversationId = "follow-up-window";
    for (let index = 1; index <= 30; index += 1) {
      await appendAgentMessage(t.app, org, agentId, { query: `note ${index}.`, conversationId });
    }
    const eventsBefore = (await followUpEvents()).length;
    scriptFollowUp(t.fake, {
      verdict: "follow_up_conversation",
      writer: { text: "Did your order arrive?", usage: { promptTokens: 321, completionTokens: 7 } },
    });

    const response = await sendFollowUp(t.app, org, agentId, { conversationId });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      answer: "Did your order arrive?",
      filter: { verdict: "follow_up_conversation", wouldSend: true },
      prompt: SAVED_PROMPT,
      promptSource: "agent",
      conversationId,
      messageId: null,
      model: "openai:gpt-4o-mini",
      usage: { inputTokens: 321, outputTokens: 7 },
    });

    const calls = chatCalls(t.fake.requests);
    expect(calls).toHaveLength(2);
    expect(calls.filter(isClassification)).toHaveLength(1);
    expect(calls.every((call) => call.body?.model === "gpt-4o-mini")).toBe(true);
    const sent = writerPrompt(t.fake.requests);
    expect(sent).toContain(SAVED_PROMPT);
    expect(sent).toContain("note 7.");
    expect(sent).toContain("note 30.");
    expect(sent).not.toMatch(/note [1-6]\./);

    const stored = await conversation(conversationId);
    expect(stored.messages).toHaveLength(30);

    const events = await followUpEvents();
    expect(events).toHaveLength(eventsBefore + 1);
    expect(events[0]).toMatchObject({
      agentId,
      feature: "follow_up",
      provider: "openai",
      modelName: "gpt-4o-mini",
      inputTokens: 321,
      outputTokens: 7,
    });
  });

  test.each([
    ["follow_up_conversation", true],
    ["permit", false],
    ["skip", false],
  ])("writes the message whatever the verdict (%s → wouldSend %s)", async (verdict, wouldSend) => {
    const { conversationId } = await appendAgentMessage(t.app, org, agentId, {
      query: "Your replacement ships today.",
    });
    scriptFollowUp(t.fake, { verdict, writer: { text: `Message after ${verdict}` } });
    const response = await sendFollowUp(t.app, org, agentId, { conversationId });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      answer: `Message after ${verdict}`,
      filter: { verdict, wouldSend },
    });
  });

  test("skips classification with skipFilter: filter null and one model call", async () => {
    const { conversationId } = await appendAgentMessage(t.app, org, agentId, { query: "Hello." });
    scriptFollowUp(t.fake, { calls: 1 });
    const response = await sendFollowUp(t.app, org, agentId, { conversationId, skipFilter: true });
    expect(response.status).toBe(200);
    expect(response.body.filter).toBeNull();
    expect(chatCalls(t.fake.requests)).toHaveLength(1);
    expect(chatCalls(t.fake.requests).some(isClassification)).toBe(false);
  });

  test("uses the request's prompt for this request only", async () => {
    const before = await getAgent();
    scriptFollowUp(t.fake, {});
    const response = await sendFollowUp(t.app, org, agentId, {
      messages: [{ from: "human", text: "Is the lock in stock?" }],
      prompt: "Offer a 10% discount code.",
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      prompt: "Offer a 10% discount code.",
      promptSource: "request",
      conversationId: null,
      messageId: null,
    });
    expect(writerPrompt(t.fake.requests)).toContain("Offer a 10% discount code.");
    expect(writerPrompt(t.fake.requests)).not.toContain(SAVED_PROMPT);
    const after = await getAgent();
    expect(after.followUpConfig).toEqual(before.followUpConfig);
    expect(after.useFollowUp).toBe(true);
    expect(after.updatedAt).toBe(before.updatedAt);
  });

  test("takes an inline conversation in order with who wrote each message", async () => {
    scriptFollowUp(t.fake, {});
    const response = await sendFollowUp(t.app, org, agentId, {
      messages: [
        { from: "human", text: "My doorbell chimes twice." },
        { from: "agent", text: "Please update the firmware." },
        { from: "human", text: "I will try tonight." },
      ],
    });
    expect(response.status).toBe(200);
    const sent = writerPrompt(t.fake.requests);
    const order = [
      "Customer: My doorbell chimes twice.",
      "Kestrel Support: Please update the firmware.",
      "Customer: I will try tonight.",
    ];
    const positions = order.map((line) => sent.indexOf(line));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  test.each(["dashboard", "website", "form", "api"])(
    "saves the message in a %s conversation with metadata.followUpQuery",
    async (channel) => {
      const { conversationId } = await appendAgentMessage(t.app, org, agentId, {
        query: "We sent the invoice.",
        channel,
      });
      const before = await conversation(conversationId);
      scriptFollowUp(t.fake, {
        verdict: "permit",
        writer: { text: "Any questions about the invoice?" },
      });
      const response = await sendFollowUp(t.app, org, agentId, {
        conversationId,
        saveToConversation: true,
      });
      expect(response.status).toBe(200);
      const body = response.body;
      expect(body.messageId).toEqual(expect.any(String));
      const after = await conversation(conversationId);
      expect(after.status).toBe(before.status);
      expect(after.messages).toHaveLength(2);
      expect(after.messages[1]).toMatchObject({
        id: body.messageId,
        from: "agent",
        text: "Any questions about the invoice?",
        agentId,
        // The agent's instructions (a versioned field) wrote it along with followUpConfig.
        agentVersion: 1,
        metadata: {
          followUpQuery: {
            trigger: "manual",
            promptSource: "agent",
            model: "openai:gpt-4o-mini",
            verdict: "permit",
            wouldSend: false,
          },
        },
      });
      const events = await followUpEvents();
      expect(events[0]).toMatchObject({ messageId: body.messageId, conversationId });
    },
  );
});

describe("the follow-up agent's failures", () => {
  test("answers 500 naming the finish reason when the model writes nothing, and bills nothing", async () => {
    const eventsBefore = (await followUpEvents()).length;
    scriptFollowUp(t.fake, { writer: { text: "", finishReason: "length" } });
    const response = await sendFollowUp(t.app, org, agentId, {
      messages: [{ from: "human", text: "Hello?" }],
    });
    expect(response.status).toBe(500);
    expect(response.error).toMatchObject({ type: "INTERNAL" });
    expect(response.error.error).toContain("empty response");
    expect(response.error.error).toContain("length");
    expect(await followUpEvents()).toHaveLength(eventsBefore);
  });

  test("answers 500 with the model's failure, not the provider's body", async () => {
    t.fake.script({ status: 400, errorMessage: "secret sk-live-999" });
    const response = await sendFollowUp(t.app, org, agentId, {
      messages: [{ from: "human", text: "Hello?" }],
      skipFilter: true,
    });
    expect(response.status).toBe(500);
    expect(response.error.error).toContain("HTTP 400");
    expect(response.text).not.toContain("sk-live-999");
  });
});
