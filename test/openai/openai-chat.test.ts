import OpenAI from "openai";
import { describe, expect } from "vitest";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ agent: { systemPrompt: "Mention the order number.", handle: "support" } });

type SentMessage = { role: string; content: string };
const sentTo = (fake: FakeOpenAI, index = 0) => {
  const chats = fake.requests.filter((request) => request.path === "/v1/chat/completions");
  return chats[index]?.body as {
    messages: SentMessage[];
    temperature?: number;
    max_tokens?: number;
  };
};

const clientOf = async (app: { listen(which: "api"): Promise<string> }, apiKey: string) =>
  new OpenAI({ baseURL: `${await app.listen("api")}/v1`, apiKey, maxRetries: 0 });

describe("GET /v1/models", () => {
  test("lists the agents by handle (else id), and finds one by either", async ({
    app,
    org,
    agent,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    const list = async () => {
      const models = [];
      for await (const model of openai.models.list()) models.push(model);
      return models;
    };
    expect(await list()).toEqual([
      {
        id: "support",
        object: "model",
        created: Math.floor(new Date(agent.createdAt).getTime() / 1000),
        owned_by: org.id,
      },
    ]);
    expect(await openai.models.retrieve(agent.id)).toEqual((await list())[0]);
    expect((await openai.models.retrieve("support")).id).toBe("support");

    // A second agent with the same handle is reached by its id, so it is listed by its id.
    const twin = await createAgent(app, org, { name: "Twin", handle: "support" });
    const plain = await createAgent(app, org, { name: "No handle" });
    const names = (await list()).map((model) => model.id).sort();
    expect(names).toEqual(["support", twin.id, plain.id].sort());
    const completion = await openai.chat.completions.create({
      model: "support",
      messages: [{ role: "user", content: "Hello" }],
    });
    expect(completion.model).toBe(agent.id);
  });
});

describe("POST /v1/chat/completions", () => {
  test("answers, charges and stores exactly as POST /api/agents/{id}/query", async ({
    app,
    org,
    api,
    fake,
    agent,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    const usage = { promptTokens: 120, completionTokens: 8 };
    fake.script({ text: "Refunds take 30 days.", usage }, { text: "Refunds take 30 days.", usage });

    const completion = await openai.chat.completions.create({
      model: agent.id,
      messages: [{ role: "user", content: "How long do refunds take?" }],
    });
    const queried = await api.agents.query(agent.id, { query: "How long do refunds take?" });
    expect(queried.status).toBe(200);
    const query = queried.body;

    const extension = (completion as unknown as { agentdesk: Record<string, unknown> }).agentdesk;
    expect(completion).toMatchObject({
      id: `chatcmpl-${extension.messageId}`,
      object: "chat.completion",
      created: expect.any(Number),
      model: agent.id,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: query.answer },
          finish_reason: "stop",
        },
      ],
      usage: {
        prompt_tokens: query.usage.promptTokens,
        completion_tokens: query.usage.completionTokens,
        total_tokens: query.usage.totalTokens,
      },
    });
    expect(extension).toEqual({
      sources: query.sources,
      conversationId: expect.any(String),
      messageId: expect.any(String),
      visitorId: expect.any(String),
      requestHuman: false,
      status: "UNRESOLVED",
      cost: query.usage.cost,
    });
    // The model was sent the same prompt both times.
    expect(sentTo(fake, 0)).toEqual(sentTo(fake, 1));

    const conversationId = extension.conversationId as string;
    const events = await api.consumptionEvents.list({ conversationId });
    expect(events.body.data).toEqual([
      expect.objectContaining({
        feature: "chat",
        inputTokens: 120,
        outputTokens: 8,
        agentId: agent.id,
        messageId: extension.messageId,
        creditsCharged: query.usage.cost,
      }),
    ]);
    const stored = await api.conversations.get(conversationId);
    expect(stored.body).toMatchObject({ agentId: agent.id, channel: "api" });
    expect(stored.body.messages).toEqual([
      expect.objectContaining({
        from: "human",
        text: "How long do refunds take?",
        agentVersion: null,
      }),
      expect.objectContaining({
        id: extension.messageId,
        from: "agent",
        text: "Refunds take 30 days.",
        usage: { promptTokens: 120, completionTokens: 8, totalTokens: 128, cost: query.usage.cost },
        agentVersion: agent.version,
      }),
    ]);

    const csv = await api.agents.exportConversations(agent.id, { conversationId });
    expect(csv.status).toBe(200);
    const rows = csv.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(rows.slice(1).map((row) => row.split(",").slice(0, 3))).toEqual([
      [`"${conversationId}"`, '"human"', '"How long do refunds take?"'],
      [`"${conversationId}"`, '"agent"', '"Refunds take 30 days."'],
    ]);
  });

  test("takes the history from the messages, the system message as the prompt override", async ({
    app,
    org,
    fake,
    agent,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    await openai.chat.completions.create({
      model: "support",
      messages: [
        { role: "system", content: "Answer in French." },
        { role: "user", content: "When does order 7 ship?" },
        { role: "assistant", content: [{ type: "text", text: "It ships Monday." }] },
        { role: "user", content: [{ type: "text", text: "And order 8?" }] },
      ],
      temperature: 0.7,
      max_tokens: 50,
    });
    const sent = sentTo(fake);
    expect(sent.messages[0]?.content).toContain(
      "Instructions from the organization:\nAnswer in French.",
    );
    expect(sent.messages[0]?.content).not.toContain("Mention the order number.");
    expect(sent.messages.slice(1)).toEqual([
      { role: "user", content: "When does order 7 ship?" },
      { role: "assistant", content: "It ships Monday." },
      { role: "user", content: "And order 8?" },
    ]);
    expect(sent).toMatchObject({ temperature: 0.7, max_tokens: 50 });
    expect(agent.temperature).toBe(0);
  });

  test("starts a conversation per call, continues the one metadata.conversation_id names", async ({
    app,
    org,
    api,
    fake,
    agent,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    const ask = (content: string, metadata?: Record<string, string>) =>
      openai.chat.completions.create({
        model: agent.id,
        messages: [{ role: "user", content }],
        ...(metadata ? { metadata } : {}),
        user: "visitor-9",
      });
    const idOf = (completion: unknown) =>
      (completion as { agentdesk: { conversationId: string } }).agentdesk.conversationId;
    const first = idOf(await ask("first"));
    const second = idOf(await ask("second"));
    expect(second).not.toBe(first);

    fake.requests.length = 0;
    const continued = idOf(await ask("third", { conversation_id: first }));
    expect(continued).toBe(first);
    // Only the question was sent: the stored conversation is the history.
    expect(sentTo(fake).messages.slice(1)).toEqual([
      { role: "user", content: "first" },
      { role: "assistant", content: "Answer: first" },
      { role: "user", content: "third" },
    ]);
    const stored = await api.conversations.get(first);
    expect(stored.body.visitorId).toBe("visitor-9");
    expect(stored.body.messages.map((m: { text: string }) => m.text)).toEqual([
      "first",
      "Answer: first",
      "third",
      "Answer: third",
    ]);
  });

  test("streams chunks: the role, the content, finish_reason, usage, then [DONE]", async ({
    app,
    org,
    api,
    fake,
    agent,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    fake.script({
      chunks: ["Refunds ", "take ", "30 days."],
      usage: { promptTokens: 40, completionTokens: 5 },
    });
    const stream = await openai.chat.completions.create({
      model: agent.id,
      messages: [{ role: "user", content: "Refunds?" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);

    const ids = new Set(chunks.map((chunk) => chunk.id));
    expect(ids.size).toBe(1);
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("Refunds take 30 days.");
    const last = chunks.at(-2);
    expect(last?.choices[0]?.finish_reason).toBe("stop");
    const extension = (
      last as unknown as { agentdesk: { messageId: string; conversationId: string } }
    ).agentdesk;
    expect([...ids][0]).toBe(`chatcmpl-${extension.messageId}`);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 40, completion_tokens: 5, total_tokens: 45 },
    });

    const events = await api.consumptionEvents.list({ conversationId: extension.conversationId });
    expect(events.body.data).toEqual([
      expect.objectContaining({ inputTokens: 40, outputTokens: 5, messageId: extension.messageId }),
    ]);
  });

  test("answers now for an agent in conversational mode (no webhook to deliver to)", async ({
    app,
    org,
  }) => {
    const conversational = await createAgent(app, org, {
      name: "Chatty",
      useConversationalMode: true,
    });
    const openai = await clientOf(app, org.apiKey);
    const completion = await openai.chat.completions.create({
      model: conversational.id,
      messages: [{ role: "user", content: "hello" }],
    });
    expect(completion.choices[0]?.message.content).toBe("Answer: hello");
  });
});
