import { describe, expect } from "vitest";
import type { ApiClient } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import {
  appendAgentMessage,
  chatCalls,
  isClassification,
  scriptFollowUp,
  sendFollowUp,
  writerPrompt,
} from "./follow-up-helpers.ts";

const SAVED_PROMPT = "Remind the customer kindly about their open order.";

const test = appTest({
  agent: {
    name: "Kestrel Support",
    useFollowUp: true,
    followUpConfig: { prompt: SAVED_PROMPT, count: 2, followUpDelayHours: 24 },
  },
});

async function getAgent(api: ApiClient, agentId: string) {
  const response = await api.agents.get(agentId);
  expect(response.status).toBe(200);
  return response.body;
}

async function conversation(api: ApiClient, id: string) {
  const response = await api.conversations.get(id);
  expect(response.status).toBe(200);
  return response.body;
}

async function followUpEvents(api: ApiClient) {
  const response = await api.consumptionEvents.list({ feature: "follow_up" });
  expect(response.status).toBe(200);
  return response.body.data as Array<Record<string, unknown>>;
}

describe("the follow-up agent on a stored conversation", () => {
  test("reads the last 24 messages, classifies, writes, bills only the writing and stores nothing", async ({
    app,
    org,
    api,
    agent,
    fake,
  }) => {
    const conversationId = "follow-up-window";
    for (let index = 1; index <= 30; index += 1) {
      await appendAgentMessage(app, org, agent.id, { query: `note ${index}.`, conversationId });
    }
    const eventsBefore = (await followUpEvents(api)).length;
    scriptFollowUp(fake, {
      verdict: "follow_up_conversation",
      writer: { text: "Did your order arrive?", usage: { promptTokens: 321, completionTokens: 7 } },
    });

    const response = await sendFollowUp(app, org, agent.id, { conversationId });
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

    const calls = chatCalls(fake.requests);
    expect(calls).toHaveLength(2);
    expect(calls.filter(isClassification)).toHaveLength(1);
    expect(calls.every((call) => call.body?.model === "gpt-4o-mini")).toBe(true);
    const sent = writerPrompt(fake.requests);
    expect(sent).toContain(SAVED_PROMPT);
    expect(sent).toContain("note 7.");
    expect(sent).toContain("note 30.");
    expect(sent).not.toMatch(/note [1-6]\./);

    const stored = await conversation(api, conversationId);
    expect(stored.messages).toHaveLength(30);

    const events = await followUpEvents(api);
    expect(events).toHaveLength(eventsBefore + 1);
    expect(events[0]).toMatchObject({
      agentId: agent.id,
      feature: "follow_up",
      provider: "openai",
      modelName: "gpt-4o-mini",
      inputTokens: 321,
      outputTokens: 7,
    });
  });

  test.for([
    ["follow_up_conversation", true],
    ["permit", false],
    ["skip", false],
  ] as const)(
    "writes the message whatever the verdict (%s → wouldSend %s)",
    async ([verdict, wouldSend], { app, org, agent, fake }) => {
      const { conversationId } = await appendAgentMessage(app, org, agent.id, {
        query: "Your replacement ships today.",
      });
      scriptFollowUp(fake, { verdict, writer: { text: `Message after ${verdict}` } });
      const response = await sendFollowUp(app, org, agent.id, { conversationId });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        answer: `Message after ${verdict}`,
        filter: { verdict, wouldSend },
      });
    },
  );

  test("skips classification with skipFilter: filter null and one model call", async ({
    app,
    org,
    agent,
    fake,
  }) => {
    const { conversationId } = await appendAgentMessage(app, org, agent.id, { query: "Hello." });
    scriptFollowUp(fake, { calls: 1 });
    const response = await sendFollowUp(app, org, agent.id, { conversationId, skipFilter: true });
    expect(response.status).toBe(200);
    expect(response.body.filter).toBeNull();
    expect(chatCalls(fake.requests)).toHaveLength(1);
    expect(chatCalls(fake.requests).some(isClassification)).toBe(false);
  });

  test("uses the request's prompt for this request only", async ({
    app,
    org,
    api,
    agent,
    fake,
  }) => {
    const before = await getAgent(api, agent.id);
    scriptFollowUp(fake, {});
    const response = await sendFollowUp(app, org, agent.id, {
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
    expect(writerPrompt(fake.requests)).toContain("Offer a 10% discount code.");
    expect(writerPrompt(fake.requests)).not.toContain(SAVED_PROMPT);
    const after = await getAgent(api, agent.id);
    expect(after.followUpConfig).toEqual(before.followUpConfig);
    expect(after.useFollowUp).toBe(true);
    expect(after.updatedAt).toBe(before.updatedAt);
  });

  test("takes an inline conversation in order with who wrote each message", async ({
    app,
    org,
    agent,
    fake,
  }) => {
    scriptFollowUp(fake, {});
    const response = await sendFollowUp(app, org, agent.id, {
      messages: [
        { from: "human", text: "My doorbell chimes twice." },
        { from: "agent", text: "Please update the firmware." },
        { from: "human", text: "I will try tonight." },
      ],
    });
    expect(response.status).toBe(200);
    const sent = writerPrompt(fake.requests);
    const order = [
      "Customer: My doorbell chimes twice.",
      "Kestrel Support: Please update the firmware.",
      "Customer: I will try tonight.",
    ];
    const positions = order.map((line) => sent.indexOf(line));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  test.for(["dashboard", "website", "form", "api"])(
    "saves the message in a %s conversation with metadata.followUpQuery",
    async (channel, { app, org, api, agent, fake }) => {
      const { conversationId } = await appendAgentMessage(app, org, agent.id, {
        query: "We sent the invoice.",
        channel,
      });
      const before = await conversation(api, conversationId);
      scriptFollowUp(fake, {
        verdict: "permit",
        writer: { text: "Any questions about the invoice?" },
      });
      const response = await sendFollowUp(app, org, agent.id, {
        conversationId,
        saveToConversation: true,
      });
      expect(response.status).toBe(200);
      const body = response.body;
      expect(body.messageId).toEqual(expect.any(String));
      const after = await conversation(api, conversationId);
      expect(after.status).toBe(before.status);
      expect(after.messages).toHaveLength(2);
      expect(after.messages[1]).toMatchObject({
        id: body.messageId,
        from: "agent",
        text: "Any questions about the invoice?",
        agentId: agent.id,
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
      const events = await followUpEvents(api);
      expect(events[0]).toMatchObject({ messageId: body.messageId, conversationId });
    },
  );
});

describe("the follow-up agent's failures", () => {
  test("answers 500 naming the finish reason when the model writes nothing, and bills nothing", async ({
    app,
    org,
    api,
    agent,
    fake,
  }) => {
    const eventsBefore = (await followUpEvents(api)).length;
    scriptFollowUp(fake, { writer: { text: "", finishReason: "length" } });
    const response = await sendFollowUp(app, org, agent.id, {
      messages: [{ from: "human", text: "Hello?" }],
    });
    expect(response.status).toBe(500);
    expect(response.error).toMatchObject({ type: "INTERNAL" });
    expect(response.error.error).toContain("empty response");
    expect(response.error.error).toContain("length");
    expect(await followUpEvents(api)).toHaveLength(eventsBefore);
  });

  test("answers 500 with the model's failure, not the provider's body", async ({
    app,
    org,
    agent,
    fake,
  }) => {
    fake.script({ status: 400, errorMessage: "secret sk-live-999" });
    const response = await sendFollowUp(app, org, agent.id, {
      messages: [{ from: "human", text: "Hello?" }],
      skipFilter: true,
    });
    expect(response.status).toBe(500);
    expect(response.error.error).toContain("HTTP 400");
    expect(response.text).not.toContain("sk-live-999");
  });
});
