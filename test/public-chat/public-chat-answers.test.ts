import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import {
  publicChat,
  publicPart,
  readPublicAgent,
  readPublicConversation,
  withoutIds,
} from "./public-chat-helpers.ts";

const test = appTest({
  agent: {
    name: "Helpdesk",
    description: "Answers about orders",
    visibility: "public",
    systemPrompt: "Mention the order number.",
    iconUrl: "https://cdn.example.com/icon.png",
  },
});

const VISITOR = "visitor-answers-1";

type ChatMessage = { role: string; content: string };
const chatRequests = (fake: { requests: Array<{ path: string; body?: unknown }> }) =>
  fake.requests
    .filter((request) => request.path === "/v1/chat/completions")
    .map((request) => (request.body as { messages: ChatMessage[] }).messages);

describe("the public agent's profile", () => {
  test("shows a visitor only its id, name, description and icon", async ({ app, agent }) => {
    const response = await readPublicAgent(app, agent.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: agent.id,
      name: "Helpdesk",
      description: "Answers about orders",
      iconUrl: "https://cdn.example.com/icon.png",
    });
  });
});

describe("a visitor's question answered as JSON", () => {
  test("is the query endpoint's answer, on the website channel, charged to the organization", async ({
    app,
    api,
    fake,
    agent,
  }) => {
    const script = {
      text: "Refunds take 30 days.",
      usage: { promptTokens: 90, completionTokens: 6 },
    };
    fake.script(script, script);
    const byKey = await api.agents.query(agent.id, { query: "How long do refunds take?" });
    const byVisitor = await publicChat(app, agent.id, {
      query: "How long do refunds take?",
      visitorId: VISITOR,
    });
    expect(byKey.status).toBe(200);
    expect(byVisitor.statusCode).toBe(200);
    const body = byVisitor.json();
    expect(withoutIds(body)).toEqual(withoutIds(publicPart(byKey.body as Record<string, unknown>)));
    expect(body).toMatchObject({ answer: "Refunds take 30 days.", visitorId: VISITOR });
    // The same prompt reached the model: the agent's system prompt, not one of the caller's.
    const [keyPrompt, visitorPrompt] = chatRequests(fake);
    expect(visitorPrompt).toEqual(keyPrompt);
    expect(visitorPrompt?.find((message) => message.role === "system")?.content).toContain(
      "Mention the order number.",
    );

    const stored = await api.conversations.get(body.conversationId);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      agentId: agent.id,
      visitorId: VISITOR,
      channel: "website",
    });

    const events = await api.consumptionEvents.list({ conversationId: body.conversationId });
    expect(events.body.data).toEqual([
      expect.objectContaining({
        feature: "chat",
        agentId: agent.id,
        inputTokens: 90,
        outputTokens: 6,
        messageId: body.messageId,
      }),
    ]);
  });
});

describe("a visitor's question answered as Server-Sent Events", () => {
  test("streams the same frames as the query endpoint", async ({ app, org, fake, agent }) => {
    const base = await app.listen("api");
    const script = {
      chunks: ["Refunds ", "take\n30 ", "days."],
      usage: { promptTokens: 40, completionTokens: 4 },
    };
    fake.script(script, script);
    const byKey = await postSse(`${base}/api/agents/${agent.id}/query`, org.auth, {
      query: "Refunds?",
      streaming: true,
    });
    const byVisitor = await postSse(
      `${base}/api/public/agents/${agent.id}/chat`,
      {},
      {
        query: "Refunds?",
        visitorId: VISITOR,
        streaming: true,
      },
    );
    expect(byVisitor.status).toBe(200);
    expect(byVisitor.headers.get("content-type")).toBe("text/event-stream");
    const [keyed, visited] = [summarize(byKey), summarize(byVisitor)];
    expect(visited.answer).toBe("Refunds take\n30 days.");
    expect(visited.answer).toBe(keyed.answer);
    expect(visited.last).toBe("[DONE]");
    expect(withoutIds(visited.response!)).toEqual(withoutIds(publicPart(keyed.response!)));
    expect(byVisitor.events.map((event) => event.event)).toEqual(
      byKey.events.map((event) => event.event),
    );
  });
});

describe("a conversation read again after a reload", () => {
  test("lists both turns oldest first", async ({ app, fake, agent }) => {
    fake.script({ text: "First answer." }, { text: "Second answer." });
    const first = await publicChat(app, agent.id, { query: "First question", visitorId: VISITOR });
    expect(first.statusCode).toBe(200);
    const conversationId = first.json().conversationId as string;
    const second = await publicChat(app, agent.id, {
      query: "Second question",
      visitorId: VISITOR,
      conversationId,
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().conversationId).toBe(conversationId);
    // The second turn was answered with the first in its history.
    const secondPrompt = chatRequests(fake)[1]!
      .map((message) => message.content)
      .join("\n");
    expect(secondPrompt).toContain("First answer.");

    const read = await readPublicConversation(app, agent.id, conversationId, VISITOR);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      conversationId,
      messages: [
        {
          id: expect.any(String),
          from: "human",
          text: "First question",
          sources: [],
          createdAt: expect.any(String),
        },
        {
          id: first.json().messageId,
          from: "agent",
          text: "First answer.",
          sources: [],
          createdAt: expect.any(String),
        },
        {
          id: expect.any(String),
          from: "human",
          text: "Second question",
          sources: [],
          createdAt: expect.any(String),
        },
        {
          id: second.json().messageId,
          from: "agent",
          text: "Second answer.",
          sources: [],
          createdAt: expect.any(String),
        },
      ],
    });
  });
});

describe("an agent with knowledge", () => {
  test("answers with sources, and the conversation read shows the same sources", async ({
    app,
    org,
    api,
    fake,
  }) => {
    const datastoreId = (await createDatastore(app, org, { name: "Help centre" })).id;
    const datasource = await addFile(app, org, datastoreId, {
      fileName: "refunds.md",
      contentType: "text/markdown",
      content: "# Refunds\n\nRefunds are paid back within 30 days of the return reaching us.",
    });
    expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
    const agent = await createAgent(app, org, {
      visibility: "public",
      datastoreIds: [datastoreId],
    });
    fake.script({ text: "Within 30 days." }, { text: "Within 30 days." });

    const byKey = await api.agents.query(agent.id, { query: "When are refunds paid?" });
    const answer = await publicChat(app, agent.id, {
      query: "When are refunds paid?",
      visitorId: VISITOR,
    });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.sources).toEqual([
      { source: "refunds.md", chunk: expect.stringContaining("within 30 days") },
    ]);
    expect(body.sources).toEqual((byKey.body as { sources: unknown }).sources);

    const read = await readPublicConversation(app, agent.id, body.conversationId, VISITOR);
    expect(read.statusCode).toBe(200);
    expect(read.json().messages[1]).toMatchObject({ from: "agent", sources: body.sources });
  });
});
