import { createHmac } from "node:crypto";
import { describe, expect } from "vitest";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import {
  conversationOf,
  deliveriesOf,
  posts,
  SIGNING_SECRET,
  waitForPosts,
  webhookTest,
} from "./webhook-helpers.ts";

const test = webhookTest();

const chatRequests = (fake: FakeOpenAI) =>
  fake.requests.filter((request) => request.path === "/v1/chat/completions");

describe("conversational mode batches a conversation's messages into one webhook", () => {
  test("answers queued at once, then delivers one signed answer to both messages of a window", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    fake.script({ text: "Your order ships tomorrow.\n\nTracking follows by email." });
    const first = await api.agents.query(agent.id, {
      query: "Where is my order?",
      webhookUrl: `${receiver.url}/hook`,
    });
    expect(first.status).toBe(200);
    const queued = first.body;
    expect(queued).toEqual({
      status: "queued",
      conversationId: expect.any(String),
      visitorId: expect.any(String),
      inputMessageId: expect.any(String),
      message: expect.stringContaining("webhookUrl"),
      webhookUrl: `${receiver.url}/hook`,
    });
    const second = await api.agents.query(agent.id, {
      query: "It is order 1234.",
      conversationId: queued.conversationId,
      webhookUrl: `${receiver.url}/hook`,
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      status: "queued",
      conversationId: queued.conversationId,
      visitorId: queued.visitorId,
    });
    expect(posts(receiver)).toHaveLength(0);

    const [delivery] = await waitForPosts(receiver, 1);
    // Give a wrongly scheduled second delivery the time to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(posts(receiver)).toHaveLength(1);
    expect(chatRequests(fake)).toHaveLength(1);
    const sent = JSON.stringify(chatRequests(fake)[0]!.body);
    expect(sent).toContain("Where is my order?");
    expect(sent).toContain("It is order 1234.");

    expect(delivery!.path).toBe("/hook");
    expect(delivery!.headers["content-type"]).toBe("application/json");
    expect(delivery!.headers["x-service-event"]).toBe("agent.response");
    const deliveryId = delivery!.headers["x-service-delivery"] as string;
    expect(deliveryId).toMatch(/\S{10,}/);
    const timestamp = delivery!.headers["x-service-timestamp"] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const expected = createHmac("sha256", SIGNING_SECRET)
      .update(`${timestamp}.${delivery!.body}`)
      .digest("hex");
    expect(delivery!.headers["x-service-signature"]).toBe(`sha256=${expected}`);

    const body = JSON.parse(delivery!.body);
    expect(body).toEqual({
      conversationId: queued.conversationId,
      visitorId: queued.visitorId,
      status: "success",
      messages: [
        {
          id: expect.any(String),
          text: "Your order ships tomorrow.",
          createdAt: expect.any(String),
        },
        {
          id: expect.any(String),
          text: "Tracking follows by email.",
          createdAt: expect.any(String),
        },
      ],
      agentResponse: {
        answer: "Your order ships tomorrow.\n\nTracking follows by email.",
        sources: [],
        usage: {
          promptTokens: expect.any(Number),
          completionTokens: expect.any(Number),
          totalTokens: expect.any(Number),
          cost: expect.any(Number),
        },
        metadata: expect.objectContaining({
          inputMessageIds: [queued.inputMessageId, second.body.inputMessageId],
        }),
      },
      messageId: body.messages[0].id,
    });

    const stored = await conversationOf(app, org, queued.conversationId);
    expect(
      stored.messages.map((message) => [message.from, message.text, message.agentVersion]),
    ).toEqual([
      ["human", "Where is my order?", null],
      ["human", "It is order 1234.", null],
      ["agent", "Your order ships tomorrow.", 1],
      ["agent", "Tracking follows by email.", 1],
    ]);
    expect(stored.messages.slice(2).map((message) => message.id)).toEqual(
      body.messages.map((message: { id: string }) => message.id),
    );

    const deliveries = await deliveriesOf(app, org, queued.conversationId);
    expect(deliveries).toEqual([
      expect.objectContaining({
        id: deliveryId,
        status: "success",
        state: "delivered",
        attemptCount: 1,
        attempts: [
          expect.objectContaining({ attempt: 1, outcome: "delivered", responseStatus: 200 }),
        ],
      }),
    ]);
  });

  test("splits an answer into at most 3 messages, or 10 in a meta conversation", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, index) => `Paragraph ${index + 1} of the answer.`,
    );
    const answer = paragraphs.join("\n\n");
    fake.script({ text: answer }, { text: answer });
    const metaConversation = "meta-conversation";
    const seeded = await app.api.inject({
      method: "POST",
      url: `/api/agents/${agent.id}/query-agent`,
      headers: org.auth,
      payload: { query: "Welcome to our page!", conversationId: metaConversation, channel: "meta" },
    });
    expect(seeded.statusCode).toBe(200);
    const webhookUrl = `${receiver.url}/split`;
    const [onApi, onMeta] = await Promise.all([
      api.agents.query(agent.id, { query: "Tell me everything.", webhookUrl }),
      api.agents.query(agent.id, {
        query: "Tell me everything.",
        conversationId: metaConversation,
        webhookUrl,
      }),
    ]);
    expect(onApi.status).toBe(200);
    expect(onMeta.status).toBe(200);

    const bodies = (await waitForPosts(receiver, 2)).map((request) => JSON.parse(request.body));
    const apiBody = bodies.find((body) => body.conversationId === onApi.body.conversationId);
    const metaBody = bodies.find((body) => body.conversationId === metaConversation);
    expect(apiBody.messages).toHaveLength(3);
    expect(metaBody.messages).toHaveLength(10);
    for (const body of [apiBody, metaBody]) {
      expect(body.agentResponse.answer).toBe(answer);
      const texts = body.messages.map((message: { text: string }) => message.text);
      expect(texts.join("\n\n")).toBe(answer);
    }

    const meta = await conversationOf(app, org, metaConversation);
    expect(meta.channel).toBe("meta");
    const stored = meta.messages.filter((message) => message.from === "agent").slice(1);
    expect(stored.map((message) => message.text)).toEqual(
      metaBody.messages.map((message: { text: string }) => message.text),
    );
    expect(stored.map((message) => message.metadata.conversational)).toEqual(
      stored.map((_, index) => expect.objectContaining({ part: index + 1, parts: 10 })),
    );
  });
});
