import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { conversations } from "../../src/db/schema/index.ts";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { createAgent } from "../harness/agents.ts";
import type { ApiClient } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ agent: { systemPrompt: "Mention the order number." } });

type ChatMessage = { role: string; content: string };
const sentMessages = (fake: FakeOpenAI, index = 0) =>
  (fake.requests.filter((request) => request.path === "/v1/chat/completions")[index]?.body
    ?.messages ?? []) as ChatMessage[];
const systemPrompt = (fake: FakeOpenAI, index = 0) =>
  sentMessages(fake, index).find((m) => m.role === "system")?.content;

async function conversation(api: ApiClient, id: string) {
  const response = await api.conversations.get(id);
  expect(response.status).toBe(200);
  return response.body;
}

describe("a query answered as JSON", () => {
  test("answers with the spec's fields, stores both messages and charges the chat", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    fake.script({
      text: "Refunds take 30 days.",
      usage: { promptTokens: 120, completionTokens: 8 },
    });
    const response = await api.agents.query(agentId, { query: "How long do refunds take?" });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toEqual({
      answer: "Refunds take 30 days.",
      sources: [],
      messageId: expect.any(String),
      conversationId: expect.any(String),
      visitorId: expect.any(String),
      request_human: false,
      status: "UNRESOLVED",
      usage: { completionTokens: 8, promptTokens: 120, totalTokens: 128, cost: expect.any(Number) },
      approvals: [],
    });
    // gpt_4o_mini: 0.15 in, 0.60 out per million tokens.
    expect(body.usage.cost).toBeCloseTo((120 * 0.15 + 8 * 0.6) / 1e6, 6);

    const stored = await conversation(api, body.conversationId);
    expect(stored).toMatchObject({
      agentId,
      visitorId: body.visitorId,
      channel: "api",
      status: "UNRESOLVED",
    });
    expect(stored.messages).toEqual([
      expect.objectContaining({ from: "human", text: "How long do refunds take?", usage: null }),
      expect.objectContaining({
        id: body.messageId,
        from: "agent",
        text: "Refunds take 30 days.",
        sources: [],
        usage: body.usage,
        metadata: expect.objectContaining({
          model: expect.objectContaining({ provider: "openai", providerModelId: "gpt-4o-mini" }),
        }),
      }),
    ]);

    const events = await api.consumptionEvents.list({ conversationId: body.conversationId });
    expect(events.body.data).toEqual([
      expect.objectContaining({
        feature: "chat",
        provider: "openai",
        modelName: "gpt-4o-mini",
        inputTokens: 120,
        outputTokens: 8,
        agentId,
        conversationId: body.conversationId,
        messageId: body.messageId,
        creditsCharged: body.usage.cost,
      }),
    ]);
  });

  test("sends the model our support template, the agent's prompt and the user's message", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    await api.agents.query(agentId, { query: "Where is my parcel?" });
    const system = systemPrompt(fake);
    expect(system).toContain("You are Support, an assistant that answers customers");
    expect(system).toContain("Instructions from the organization:\nMention the order number.");
    expect(system).not.toContain("<knowledge>");
    expect(sentMessages(fake).at(-1)).toEqual({ role: "user", content: "Where is my parcel?" });
    expect(fake.requests[0]?.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0 });
  });

  test("continues a conversation with its history, oldest first", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    fake.script({ text: "It ships Monday." });
    const first = (await api.agents.query(agentId, { query: "When does order 7 ship?" })).body;
    const second = await api.agents.query(agentId, {
      query: "And order 8?",
      conversationId: first.conversationId,
    });
    expect(second.body).toMatchObject({
      conversationId: first.conversationId,
      visitorId: first.visitorId,
    });
    expect(sentMessages(fake, 1).slice(1)).toEqual([
      { role: "user", content: "When does order 7 ship?" },
      { role: "assistant", content: "It ships Monday." },
      { role: "user", content: "And order 8?" },
    ]);
    const stored = await conversation(api, first.conversationId);
    expect(stored.messages.map((m: { from: string }) => m.from)).toEqual([
      "human",
      "agent",
      "human",
      "agent",
    ]);
  });

  test("sends at most the last 24 messages of the conversation", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    const first = (await api.agents.query(agentId, { query: "message 0" })).body;
    for (let index = 1; index <= 14; index += 1) {
      await api.agents.query(agentId, {
        query: `message ${index}`,
        conversationId: first.conversationId,
      });
    }
    fake.requests.length = 0;
    await api.agents.query(agentId, { query: "last one", conversationId: first.conversationId });
    const history = sentMessages(fake).filter((m) => m.role !== "system");
    expect(history).toHaveLength(25);
    // 30 stored messages: the 6 oldest (messages 0 to 2 and their answers) are left out.
    expect(history[0]).toEqual({ role: "user", content: "message 3" });
    expect(history.at(-1)).toEqual({ role: "user", content: "last one" });
  });

  test("creates a conversation under an id the client chose, and keeps the visitor id", async ({
    api,
    agent: { id: agentId },
  }) => {
    const response = await api.agents.query(agentId, {
      query: "hello",
      conversationId: "client-chosen-1",
      visitorId: "visitor-42",
      channel: "website",
    });
    expect(response.body).toMatchObject({
      conversationId: "client-chosen-1",
      visitorId: "visitor-42",
    });
    const stored = await conversation(api, "client-chosen-1");
    expect(stored).toMatchObject({ visitorId: "visitor-42", channel: "website" });
  });

  test("adds the request's context to the system prompt", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    await api.agents.query(agentId, {
      query: "What plan am I on?",
      context: "The customer is on Pro.",
    });
    expect(systemPrompt(fake)).toContain("Context for this request:\nThe customer is on Pro.");
  });

  test("replaces the system prompt for one request only; an empty string changes nothing", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    await api.agents.query(agentId, { query: "hi", systemPrompt: "Answer in French." });
    expect(systemPrompt(fake, 0)).toContain(
      "Instructions from the organization:\nAnswer in French.",
    );
    expect(systemPrompt(fake, 0)).not.toContain("Mention the order number.");
    await api.agents.query(agentId, { query: "hi", systemPrompt: "" });
    expect(systemPrompt(fake, 1)).toContain("Mention the order number.");
    const agent = await api.agents.get(agentId);
    expect(agent.body.systemPrompt).toBe("Mention the order number.");
  });

  test("sends the system prompt exactly as written when promptType raw is given", async ({
    app,
    api,
    fake,
    org,
    agent: { id: agentId },
  }) => {
    await api.agents.query(agentId, {
      query: "hi",
      systemPrompt: "You are a pirate.",
      promptType: "raw",
    });
    expect(systemPrompt(fake)).toBe("You are a pirate.");
    const rawAgent = await createAgent(app, org, {
      name: "Raw",
      promptType: "raw",
      systemPrompt: "Only say yes.",
      userPrompt: "Q: {query}\nA:",
    });
    await api.agents.query(rawAgent.id, { query: "Is it open?" });
    expect(systemPrompt(fake, 1)).toBe("Only say yes.");
    expect(sentMessages(fake, 1).at(-1)).toEqual({ role: "user", content: "Q: Is it open?\nA:" });
  });

  test("reuses a contact matching email, phone number or userId", async ({
    api,
    agent: { id: agentId },
  }) => {
    const ask = async (contact: Record<string, string>) => {
      const body = (await api.agents.query(agentId, { query: "hi", contact })).body;
      return (await conversation(api, body.conversationId)).contact;
    };
    const created = await ask({ email: "Ada@Example.com", firstName: "Ada" });
    expect(created).toMatchObject({
      email: "ada@example.com",
      firstName: "Ada",
      phoneNumber: null,
    });
    const byEmail = await ask({ email: "ada@example.com", phoneNumber: "+44 20 7946 0000" });
    expect(byEmail.id).toBe(created.id);
    expect(byEmail.phoneNumber).toBe("+442079460000");
    const byPhone = await ask({ phoneNumber: "+44 (20) 7946-0000", userId: "crm-7" });
    expect(byPhone.id).toBe(created.id);
    const byUser = await ask({ userId: "crm-7" });
    expect(byUser).toMatchObject({ id: created.id, userId: "crm-7", firstName: "Ada" });
    const someoneElse = await ask({ email: "grace@example.com" });
    expect(someoneElse.id).not.toBe(created.id);
  });
});

describe("handing over to a person", () => {
  test("follows the model's request_human tool call", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    fake.script(
      { toolCalls: [{ name: "request_human", arguments: { reason: "refund dispute" } }] },
      { text: "I have asked a colleague to help you." },
    );
    const response = await api.agents.query(agentId, { query: "This is the third time I write!" });
    expect(response.body).toMatchObject({
      answer: "I have asked a colleague to help you.",
      request_human: true,
      status: "HUMAN_REQUESTED",
    });
    const stored = await conversation(api, response.body.conversationId);
    expect(stored.status).toBe("HUMAN_REQUESTED");
    expect(stored.messages[1].metadata.requestedHuman).toBe(true);
    expect(fake.requests[0]?.body?.tools).toMatchObject([{ function: { name: "request_human" } }]);
  });

  test("says so itself when the model hands over without a word", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    fake.script({ toolCalls: [{ name: "request_human", arguments: {} }] }, { text: "" });
    const response = await api.agents.query(agentId, { query: "cancel everything" });
    expect(response.body).toMatchObject({
      answer: "A member of our team will take over this conversation shortly.",
      request_human: true,
    });
  });

  test("honours a customer who asks for a person", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    const response = await api.agents.query(agentId, { query: "I want to talk to a human" });
    expect(response.body).toMatchObject({ request_human: true, status: "HUMAN_REQUESTED" });
    expect(systemPrompt(fake)).toContain("The customer asked to talk to a person");
  });

  test("reopens a resolved conversation on a new customer message, keeps a handed-over one", async ({
    app,
    api,
    agent: { id: agentId },
  }) => {
    const first = (await api.agents.query(agentId, { query: "hi" })).body;
    await app.database.db
      .update(conversations)
      .set({ status: "RESOLVED" })
      .where(eq(conversations.id, first.conversationId));
    const reopened = await api.agents.query(agentId, {
      query: "one more thing",
      conversationId: first.conversationId,
    });
    expect(reopened.body.status).toBe("UNRESOLVED");

    await api.agents.query(agentId, {
      query: "human please",
      conversationId: first.conversationId,
    });
    const after = await api.agents.query(agentId, {
      query: "thanks",
      conversationId: first.conversationId,
    });
    expect(after.body).toMatchObject({ status: "HUMAN_REQUESTED", request_human: false });
  });
});

describe("usage limits", () => {
  test("refuses with 402 once the free plan is used up, without calling the model", async ({
    app,
    fake,
  }) => {
    const free = await app.createOrganization("Free plan");
    const agent = await createAgent(app, free);
    for (let index = 0; index < 5; index += 1) {
      expect(
        (await app.client(free.auth).agents.query(agent.id, { query: `q${index}` })).status,
      ).toBe(200);
    }
    fake.requests.length = 0;
    const refused = await app.client(free.auth).agents.query(agent.id, { query: "one too many" });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      type: "USAGE_LIMIT",
      error: expect.stringContaining("free plan"),
    });
    expect(fake.requests).toHaveLength(0);
  });
});
