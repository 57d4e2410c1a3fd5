import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { conversations } from "../../src/db/schema/index.ts";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  query,
  startQueryTestApp,
} from "../agents/agent-helpers.ts";
import type { TestOrganization } from "../harness/app.ts";

let t: QueryTestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startQueryTestApp();
  org = await createFundedOrganization(t.app);
  agentId = (await createAgent(t.app, org, { systemPrompt: "Mention the order number." })).id;
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.requests.length = 0;
});

type ChatMessage = { role: string; content: string };
const sentMessages = (index = 0) =>
  (t.fake.requests.filter((request) => request.path === "/v1/chat/completions")[index]?.body
    ?.messages ?? []) as ChatMessage[];
const systemPrompt = (index = 0) => sentMessages(index).find((m) => m.role === "system")?.content;

async function conversation(id: string) {
  const response = await t.app.api.inject({ url: `/api/conversations/${id}`, headers: org.auth });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe("a query answered as JSON", () => {
  it("answers with the spec's fields, stores both messages and charges the chat", async () => {
    t.fake.script({
      text: "Refunds take 30 days.",
      usage: { promptTokens: 120, completionTokens: 8 },
    });
    const response = await query(t.app, org, agentId, { query: "How long do refunds take?" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
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

    const stored = await conversation(body.conversationId);
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

    const events = await t.app.api.inject({
      url: `/api/consumption-events?conversationId=${body.conversationId}`,
      headers: org.auth,
    });
    expect(events.json().data).toEqual([
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

  it("sends the model our support template, the agent's prompt and the user's message", async () => {
    await query(t.app, org, agentId, { query: "Where is my parcel?" });
    const system = systemPrompt();
    expect(system).toContain("You are Support, an assistant that answers customers");
    expect(system).toContain("Instructions from the organization:\nMention the order number.");
    expect(system).not.toContain("<knowledge>");
    expect(sentMessages().at(-1)).toEqual({ role: "user", content: "Where is my parcel?" });
    expect(t.fake.requests[0]?.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0 });
  });

  it("continues a conversation with its history, oldest first", async () => {
    t.fake.script({ text: "It ships Monday." });
    const first = (await query(t.app, org, agentId, { query: "When does order 7 ship?" })).json();
    const second = await query(t.app, org, agentId, {
      query: "And order 8?",
      conversationId: first.conversationId,
    });
    expect(second.json()).toMatchObject({
      conversationId: first.conversationId,
      visitorId: first.visitorId,
    });
    expect(sentMessages(1).slice(1)).toEqual([
      { role: "user", content: "When does order 7 ship?" },
      { role: "assistant", content: "It ships Monday." },
      { role: "user", content: "And order 8?" },
    ]);
    const stored = await conversation(first.conversationId);
    expect(stored.messages.map((m: { from: string }) => m.from)).toEqual([
      "human",
      "agent",
      "human",
      "agent",
    ]);
  });

  it("sends at most the last 24 messages of the conversation", async () => {
    const first = (await query(t.app, org, agentId, { query: "message 0" })).json();
    for (let index = 1; index <= 14; index += 1) {
      await query(t.app, org, agentId, {
        query: `message ${index}`,
        conversationId: first.conversationId,
      });
    }
    t.fake.requests.length = 0;
    await query(t.app, org, agentId, { query: "last one", conversationId: first.conversationId });
    const history = sentMessages().filter((m) => m.role !== "system");
    expect(history).toHaveLength(25);
    // 30 stored messages: the 6 oldest (messages 0 to 2 and their answers) are left out.
    expect(history[0]).toEqual({ role: "user", content: "message 3" });
    expect(history.at(-1)).toEqual({ role: "user", content: "last one" });
  });

  it("creates a conversation under an id the client chose, and keeps the visitor id", async () => {
    const response = await query(t.app, org, agentId, {
      query: "hello",
      conversationId: "client-chosen-1",
      visitorId: "visitor-42",
      channel: "website",
    });
    expect(response.json()).toMatchObject({
      conversationId: "client-chosen-1",
      visitorId: "visitor-42",
    });
    const stored = await conversation("client-chosen-1");
    expect(stored).toMatchObject({ visitorId: "visitor-42", channel: "website" });
  });

  it("adds the request's context to the system prompt", async () => {
    await query(t.app, org, agentId, {
      query: "What plan am I on?",
      context: "The customer is on Pro.",
    });
    expect(systemPrompt()).toContain("Context for this request:\nThe customer is on Pro.");
  });

  it("replaces the system prompt for one request only; an empty string changes nothing", async () => {
    await query(t.app, org, agentId, { query: "hi", systemPrompt: "Answer in French." });
    expect(systemPrompt(0)).toContain("Instructions from the organization:\nAnswer in French.");
    expect(systemPrompt(0)).not.toContain("Mention the order number.");
    await query(t.app, org, agentId, { query: "hi", systemPrompt: "" });
    expect(systemPrompt(1)).toContain("Mention the order number.");
    const agent = await t.app.api.inject({ url: `/api/agents/${agentId}`, headers: org.auth });
    expect(agent.json().systemPrompt).toBe("Mention the order number.");
  });

  it("sends the system prompt exactly as written when promptType raw is given", async () => {
    await query(t.app, org, agentId, {
      query: "hi",
      systemPrompt: "You are a pirate.",
      promptType: "raw",
    });
    expect(systemPrompt()).toBe("You are a pirate.");
    const rawAgent = await createAgent(t.app, org, {
      name: "Raw",
      promptType: "raw",
      systemPrompt: "Only say yes.",
      userPrompt: "Q: {query}\nA:",
    });
    await query(t.app, org, rawAgent.id, { query: "Is it open?" });
    expect(systemPrompt(1)).toBe("Only say yes.");
    expect(sentMessages(1).at(-1)).toEqual({ role: "user", content: "Q: Is it open?\nA:" });
  });

  it("reuses a contact matching email, phone number or userId", async () => {
    const ask = async (contact: Record<string, string>) => {
      const body = (await query(t.app, org, agentId, { query: "hi", contact })).json();
      return (await conversation(body.conversationId)).contact;
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
  it("follows the model's request_human tool call", async () => {
    t.fake.script(
      { toolCalls: [{ name: "request_human", arguments: { reason: "refund dispute" } }] },
      { text: "I have asked a colleague to help you." },
    );
    const response = await query(t.app, org, agentId, { query: "This is the third time I write!" });
    expect(response.json()).toMatchObject({
      answer: "I have asked a colleague to help you.",
      request_human: true,
      status: "HUMAN_REQUESTED",
    });
    const stored = await conversation(response.json().conversationId);
    expect(stored.status).toBe("HUMAN_REQUESTED");
    expect(stored.messages[1].metadata.requestedHuman).toBe(true);
    expect(t.fake.requests[0]?.body?.tools).toMatchObject([
      { function: { name: "request_human" } },
    ]);
  });

  it("says so itself when the model hands over without a word", async () => {
    t.fake.script({ toolCalls: [{ name: "request_human", arguments: {} }] }, { text: "" });
    const response = await query(t.app, org, agentId, { query: "cancel everything" });
    expect(response.json()).toMatchObject({
      answer: "A member of our team will take over this conversation shortly.",
      request_human: true,
    });
  });

  it("honours a customer who asks for a person", async () => {
    const response = await query(t.app, org, agentId, { query: "I want to talk to a human" });
    expect(response.json()).toMatchObject({ request_human: true, status: "HUMAN_REQUESTED" });
    expect(systemPrompt()).toContain("The customer asked to talk to a person");
  });

  it("reopens a resolved conversation on a new customer message, keeps a handed-over one", async () => {
    const first = (await query(t.app, org, agentId, { query: "hi" })).json();
    await t.app.database.db
      .update(conversations)
      .set({ status: "RESOLVED" })
      .where(eq(conversations.id, first.conversationId));
    const reopened = await query(t.app, org, agentId, {
      query: "one more thing",
      conversationId: first.conversationId,
    });
    expect(reopened.json().status).toBe("UNRESOLVED");

    await query(t.app, org, agentId, {
      query: "human please",
      conversationId: first.conversationId,
    });
    const after = await query(t.app, org, agentId, {
      query: "thanks",
      conversationId: first.conversationId,
    });
    expect(after.json()).toMatchObject({ status: "HUMAN_REQUESTED", request_human: false });
  });
});

describe("usage limits", () => {
  it("refuses with 402 once the free plan is used up, without calling the model", async () => {
    const free = await t.app.createOrganization("Free plan");
    const agent = await createAgent(t.app, free);
    for (let index = 0; index < 5; index += 1) {
      expect((await query(t.app, free, agent.id, { query: `q${index}` })).statusCode).toBe(200);
    }
    t.fake.requests.length = 0;
    const refused = await query(t.app, free, agent.id, { query: "one too many" });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({
      type: "USAGE_LIMIT",
      error: expect.stringContaining("free plan"),
    });
    expect(t.fake.requests).toHaveLength(0);
  });
});
