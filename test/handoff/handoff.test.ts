import { describe, expect } from "vitest";
import {
  BOT_TOKEN,
  type ChannelBody,
  type ChannelFixtures,
  channelTest,
  chatRequests,
  conversationOfChat,
  createChannel,
  eventually,
  postInbound,
  telegramSendsTo,
} from "../channels/channel-helpers.ts";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { type TelegramApi, telegramTextUpdate } from "../fakes/telegram-api.ts";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import type { TestApp } from "../harness/app.ts";
import { openSse } from "../harness/sse-client.ts";

const test = channelTest();

let channel: ChannelBody;
let secret: string;
let operator: SignedIn;
let viewer: SignedIn;
test.beforeAll(async ({ app, org, agent, telegram }) => {
  channel = await createChannel(
    { app, org, agent },
    { type: "telegram", config: { botToken: BOT_TOKEN } },
  );
  secret = telegram.webhookOf(BOT_TOKEN)!.secret_token!;
  operator = await memberOf(app, org, "member");
  viewer = await memberOf(app, org, "viewer");
});

let nextId = 100;
const deliver = (app: TestApp, chatId: number, text: string) => {
  nextId += 1;
  const update = telegramTextUpdate({
    updateId: nextId,
    messageId: nextId,
    chatId,
    from: { id: chatId, first_name: "Ada" },
    text,
  });
  return postInbound(app, channel, JSON.stringify(update), {
    "x-telegram-bot-api-secret-token": secret,
  });
};
const sendsTo = (telegram: TelegramApi, chatId: number) => telegramSendsTo(telegram, chatId);
const modelCalls = (fake: FakeOpenAI) => chatRequests(fake);

/** A Telegram conversation the AI answered once. */
async function answeredChat(fixtures: ChannelFixtures & { telegram: TelegramApi }, chatId: number) {
  expect((await deliver(fixtures.app, chatId, "Hello")).statusCode).toBe(200);
  await eventually(() => expect(sendsTo(fixtures.telegram, chatId)).toHaveLength(1));
  return conversationOfChat(fixtures, chatId);
}

const patch = (
  app: TestApp,
  id: string,
  headers: Record<string, string>,
  payload: Record<string, unknown>,
) => app.api.inject({ method: "PATCH", url: `/api/conversations/${id}`, headers, payload });
const reply = (
  app: TestApp,
  id: string,
  headers: Record<string, string>,
  payload: Record<string, unknown>,
) => app.api.inject({ method: "POST", url: `/api/conversations/${id}/messages`, headers, payload });

describe("taking over a conversation", () => {
  test("stops the AI, sends the operator's reply through Telegram, and hands back on resolve", async ({
    app,
    org,
    agent,
    fake,
    telegram,
  }) => {
    const conversation = await answeredChat({ app, org, agent, telegram }, 1001);
    expect(conversation).toMatchObject({ aiEnabled: true, assignee: null, status: "UNRESOLVED" });

    const taken = await patch(app, conversation.id, operator.headers, {
      aiEnabled: false,
      assigneeId: operator.userId,
    });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({
      status: "HUMAN_REQUESTED",
      aiEnabled: false,
      assignee: { id: operator.userId, email: operator.email },
    });

    const sent = await reply(app, conversation.id, operator.headers, {
      text: "Hi, Sam here. Let me check.",
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      from: "agent",
      text: "Hi, Sam here. Let me check.",
      user: { id: operator.userId, email: operator.email },
      delivery: { status: "queued" },
    });
    await eventually(() =>
      expect(sendsTo(telegram, 1001)).toEqual(["Answer: Hello", "Hi, Sam here. Let me check."]),
    );

    // The customer writes again: no model call, no AI answer, no typing indicator.
    fake.requests.length = 0;
    const typing = () =>
      telegram
        .callsTo("sendChatAction")
        .filter((call) => (call.body as { chat_id: string }).chat_id === "1001");
    expect(typing()).toHaveLength(1);
    expect((await deliver(app, 1001, "Thanks, waiting")).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(modelCalls(fake)).toHaveLength(0);
    expect(typing()).toHaveLength(1);
    expect(sendsTo(telegram, 1001)).toHaveLength(2);
    const during = await conversationOfChat({ app, org, agent }, 1001);
    expect(during.messages.at(-1)).toMatchObject({ from: "human", text: "Thanks, waiting" });
    const operatorMessage = during.messages.find(
      (message: { user?: unknown }) => message.user !== undefined,
    );
    expect(operatorMessage.delivery).toMatchObject({ status: "sent" });

    const resolved = await patch(app, conversation.id, operator.headers, { status: "RESOLVED" });
    expect(resolved.json()).toMatchObject({ status: "RESOLVED", aiEnabled: true });
    expect((await deliver(app, 1001, "One more question")).statusCode).toBe(200);
    await eventually(() => expect(sendsTo(telegram, 1001)).toHaveLength(3));
    expect(sendsTo(telegram, 1001)[2]).toBe("Answer: One more question");
    const after = await conversationOfChat({ app, org, agent }, 1001);
    expect(after.status).toBe("UNRESOLVED");
  });

  test("never sends an AI answer that was in flight when a person took over", async ({
    app,
    org,
    agent,
    fake,
    telegram,
  }) => {
    const conversation = await answeredChat({ app, org, agent, telegram }, 1002);
    fake.requests.length = 0;
    fake.script({ text: "An answer nobody should see.", delayMs: 1_500 });
    expect((await deliver(app, 1002, "Are you a bot?")).statusCode).toBe(200);
    await eventually(() => expect(modelCalls(fake)).toHaveLength(1));
    expect(
      (await patch(app, conversation.id, operator.headers, { aiEnabled: false })).statusCode,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(sendsTo(telegram, 1002)).toEqual(["Answer: Hello"]);
    const after = await conversationOfChat({ app, org, agent }, 1002);
    const draft = after.messages.find(
      (message: { text: string }) => message.text === "An answer nobody should see.",
    );
    expect(draft?.isDraft).toBe(true);
  });

  test("delivers two operators' replies in the order they were written", async ({
    app,
    org,
    agent,
    telegram,
  }) => {
    const conversation = await answeredChat({ app, org, agent, telegram }, 1003);
    const other = await memberOf(app, org, "member");
    const [first, second] = await Promise.all([
      reply(app, conversation.id, operator.headers, { text: "First reply" }),
      reply(app, conversation.id, other.headers, { text: "Second reply" }),
    ]);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    await eventually(() => expect(sendsTo(telegram, 1003)).toHaveLength(3));
    const stored = (await conversationOfChat({ app, org, agent }, 1003)).messages
      .filter((message: { user?: unknown }) => message.user)
      .map((message: { text: string }) => message.text);
    expect(sendsTo(telegram, 1003).slice(1)).toEqual(stored);
  });

  test("answers a query in a conversation a person handles with an empty answer, free of charge", async ({
    app,
    org,
    agent,
    fake,
  }) => {
    const client = app.client(org.auth);
    const first = await client.agents.query(agent.id, { query: "Hi" });
    expect(first.status).toBe(200);
    const { conversationId } = first.body;
    expect((await patch(app, conversationId, org.auth, { aiEnabled: false })).statusCode).toBe(200);
    fake.requests.length = 0;
    const before = await client.consumptionEvents.list({});
    const handled = await client.agents.query(agent.id, { query: "Still there?", conversationId });
    expect(handled.status).toBe(200);
    expect(handled.body).toMatchObject({
      answer: "",
      status: "HUMAN_REQUESTED",
      conversationId,
      usage: { totalTokens: 0, cost: 0 },
    });
    expect(modelCalls(fake)).toHaveLength(0);
    const after = await client.consumptionEvents.list({});
    expect(after.body.data.length).toBe(before.body.data.length);
    const stored = await client.conversations.get(conversationId, { agentId: agent.id });
    expect(stored.body.messages.at(-1)).toMatchObject({ from: "human", text: "Still there?" });
  });
});

describe("live events of a handoff", () => {
  test("streams the takeover and the operator's reply to /api/events as they happen", async ({
    app,
    org,
    agent,
    telegram,
  }) => {
    const conversation = await answeredChat({ app, org, agent, telegram }, 1005);
    const stream = await openSse(`${await app.listen("api")}/api/events`, org.auth);
    try {
      expect(stream.status).toBe(200);
      expect(
        (await patch(app, conversation.id, operator.headers, { aiEnabled: false })).statusCode,
      ).toBe(200);
      expect(
        (await reply(app, conversation.id, operator.headers, { text: "Sam here" })).statusCode,
      ).toBe(201);
      const events = await stream.waitFor(3);
      expect(events.map((event) => event.event)).toEqual([
        "conversation.updated",
        "conversation.human_requested",
        "message.created",
      ]);
      expect(JSON.parse(events[0]!.data)).toMatchObject({
        conversationId: conversation.id,
        agentId: agent.id,
        status: "HUMAN_REQUESTED",
        aiEnabled: false,
      });
      expect(JSON.parse(events[2]!.data)).toMatchObject({
        conversationId: conversation.id,
        message: { from: "agent", text: "Sam here", user: { id: operator.userId } },
      });
    } finally {
      await stream.close();
    }
  });
});

describe("live events of conversations", () => {
  test("announces a query's question and answer, and a customer asking for a person", async ({
    app,
    org,
    agent,
  }) => {
    const stream = await openSse(`${await app.listen("api")}/api/events`, org.auth);
    try {
      const client = app.client(org.auth);
      const asked = await client.agents.query(agent.id, { query: "What are your hours?" });
      expect(asked.status).toBe(200);
      const first = await stream.waitFor(2);
      expect(first.map((event) => event.event)).toEqual(["message.created", "message.created"]);
      expect(first.map((event) => JSON.parse(event.data).message.from)).toEqual(["human", "agent"]);
      expect(JSON.parse(first[1]!.data)).toMatchObject({
        conversationId: asked.body.conversationId,
        message: { id: asked.body.messageId, text: asked.body.answer },
      });
      const human = await client.agents.query(agent.id, {
        query: "I want to talk to a human",
        conversationId: asked.body.conversationId,
      });
      expect(human.status).toBe(200);
      const all = await stream.waitFor(5);
      expect(all.map((event) => event.event)).toContain("conversation.human_requested");
    } finally {
      await stream.close();
    }
  });
});

describe("handoff metrics", () => {
  test("count handoffs by trigger, time the first reply, and gauge who waits", async ({
    app,
    org,
    agent,
    telegram,
  }) => {
    const conversation = await answeredChat({ app, org, agent, telegram }, 1006);
    expect((await deliver(app, 1006, "I want to talk to a human")).statusCode).toBe(200);
    await eventually(async () =>
      expect((await conversationOfChat({ app, org, agent }, 1006)).status).toBe("HUMAN_REQUESTED"),
    );
    // The customer who asked for a person was answered (the handover), then the AI stepped out.
    await eventually(() => expect(sendsTo(telegram, 1006)).toHaveLength(2));
    expect((await conversationOfChat({ app, org, agent }, 1006)).aiEnabled).toBe(false);
    const scrape = async () =>
      (
        await app.api.inject({
          url: "/metrics",
          headers: { authorization: "Bearer test-admin-token" },
        })
      ).body;
    const waiting = (body: string) =>
      Number(/agentdesk_conversations_waiting_for_human (\d+)/.exec(body)?.[1]);
    const before = await scrape();
    expect(before).toMatch(/agentdesk_handoffs_total\{trigger="customer"\} [1-9]/);
    expect(waiting(before)).toBeGreaterThanOrEqual(1);
    const replied = await reply(app, conversation.id, operator.headers, { text: "On it." });
    expect(replied.statusCode).toBe(201);
    const after = await scrape();
    expect(after).toMatch(/agentdesk_handoff_first_reply_seconds_count [1-9]/);
    expect(after).toMatch(/agentdesk_handoffs_total\{trigger="operator"\} [0-9]/);
    expect(
      (await patch(app, conversation.id, operator.headers, { status: "RESOLVED" })).statusCode,
    ).toBe(200);
    expect(waiting(await scrape())).toBe(waiting(before) - 1);
  });
});

describe("handoff refuses bad requests", () => {
  test("checks the body, the role, the organization and the assignee", async ({
    app,
    org,
    agent,
    telegram,
  }) => {
    const conversation = await answeredChat({ app, org, agent, telegram }, 1004);
    const url = conversation.id;
    expect((await reply(app, url, operator.headers, { text: "" })).statusCode).toBe(400);
    expect((await reply(app, url, operator.headers, { text: "x".repeat(4_001) })).statusCode).toBe(
      400,
    );
    expect((await reply(app, url, operator.headers, {})).statusCode).toBe(400);
    expect((await patch(app, url, operator.headers, {})).statusCode).toBe(400);
    expect((await patch(app, url, operator.headers, { status: "CLOSED" })).statusCode).toBe(400);
    expect((await patch(app, url, operator.headers, { assigneeId: "nobody" })).statusCode).toBe(
      400,
    );
    expect((await reply(app, url, viewer.headers, { text: "Hi" })).statusCode).toBe(403);
    expect((await patch(app, url, viewer.headers, { aiEnabled: false })).statusCode).toBe(403);
    const other = await app.createOrganization("Other");
    expect((await reply(app, url, other.auth, { text: "Hi" })).statusCode).toBe(404);
    expect((await patch(app, url, other.auth, { aiEnabled: false })).statusCode).toBe(404);
    const unknown = await reply(app, "no-such-conversation", operator.headers, { text: "Hi" });
    expect(unknown.statusCode).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sendsTo(telegram, 1004)).toHaveLength(1);
    expect((await conversationOfChat({ app, org, agent }, 1004)).aiEnabled).toBe(true);
  });
});
