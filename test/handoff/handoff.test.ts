import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  BOT_TOKEN,
  type ChannelBody,
  type ChannelTestApp,
  chatRequests,
  conversationOfChat,
  createChannel,
  eventually,
  postInbound,
  startChannelTestApp,
  telegramSendsTo,
} from "../channels/channel-helpers.ts";
import { telegramTextUpdate } from "../fakes/telegram-api.ts";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import { openSse } from "../harness/sse-client.ts";

let t: ChannelTestApp;
let channel: ChannelBody;
let secret: string;
let operator: SignedIn;
let viewer: SignedIn;
beforeAll(async () => {
  t = await startChannelTestApp();
  channel = await createChannel(t, { type: "telegram", config: { botToken: BOT_TOKEN } });
  secret = t.telegram.webhookOf(BOT_TOKEN)!.secret_token!;
  operator = await memberOf(t.app, t.org, "member");
  viewer = await memberOf(t.app, t.org, "viewer");
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.requests.length = 0;
});

let nextId = 100;
const deliver = (chatId: number, text: string) => {
  nextId += 1;
  const update = telegramTextUpdate({
    updateId: nextId,
    messageId: nextId,
    chatId,
    from: { id: chatId, first_name: "Ada" },
    text,
  });
  return postInbound(t.app, channel, JSON.stringify(update), {
    "x-telegram-bot-api-secret-token": secret,
  });
};
const sendsTo = (chatId: number) => telegramSendsTo(t.telegram, chatId);
const modelCalls = () => chatRequests(t.fake);

/** A Telegram conversation the AI answered once. */
async function answeredChat(chatId: number) {
  expect((await deliver(chatId, "Hello")).statusCode).toBe(200);
  await eventually(() => expect(sendsTo(chatId)).toHaveLength(1));
  return conversationOfChat(t, chatId);
}

const patch = (id: string, headers: Record<string, string>, payload: Record<string, unknown>) =>
  t.app.api.inject({ method: "PATCH", url: `/api/conversations/${id}`, headers, payload });
const reply = (id: string, headers: Record<string, string>, payload: Record<string, unknown>) =>
  t.app.api.inject({ method: "POST", url: `/api/conversations/${id}/messages`, headers, payload });

describe("taking over a conversation", () => {
  test("stops the AI, sends the operator's reply through Telegram, and hands back on resolve", async () => {
    const conversation = await answeredChat(1001);
    expect(conversation).toMatchObject({ aiEnabled: true, assignee: null, status: "UNRESOLVED" });

    const taken = await patch(conversation.id, operator.headers, {
      aiEnabled: false,
      assigneeId: operator.userId,
    });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({
      status: "HUMAN_REQUESTED",
      aiEnabled: false,
      assignee: { id: operator.userId, email: operator.email },
    });

    const sent = await reply(conversation.id, operator.headers, {
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
      expect(sendsTo(1001)).toEqual(["Answer: Hello", "Hi, Sam here. Let me check."]),
    );

    // The customer writes again: no model call, no AI answer, no typing indicator.
    t.fake.requests.length = 0;
    const typing = () =>
      t.telegram
        .callsTo("sendChatAction")
        .filter((call) => (call.body as { chat_id: string }).chat_id === "1001");
    expect(typing()).toHaveLength(1);
    expect((await deliver(1001, "Thanks, waiting")).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(modelCalls()).toHaveLength(0);
    expect(typing()).toHaveLength(1);
    expect(sendsTo(1001)).toHaveLength(2);
    const during = await conversationOfChat(t, 1001);
    expect(during.messages.at(-1)).toMatchObject({ from: "human", text: "Thanks, waiting" });
    const operatorMessage = during.messages.find(
      (message: { user?: unknown }) => message.user !== undefined,
    );
    expect(operatorMessage.delivery).toMatchObject({ status: "sent" });

    const resolved = await patch(conversation.id, operator.headers, { status: "RESOLVED" });
    expect(resolved.json()).toMatchObject({ status: "RESOLVED", aiEnabled: true });
    expect((await deliver(1001, "One more question")).statusCode).toBe(200);
    await eventually(() => expect(sendsTo(1001)).toHaveLength(3));
    expect(sendsTo(1001)[2]).toBe("Answer: One more question");
    const after = await conversationOfChat(t, 1001);
    expect(after.status).toBe("UNRESOLVED");
  });

  test("never sends an AI answer that was in flight when a person took over", async () => {
    const conversation = await answeredChat(1002);
    t.fake.requests.length = 0;
    t.fake.script({ text: "An answer nobody should see.", delayMs: 1_500 });
    expect((await deliver(1002, "Are you a bot?")).statusCode).toBe(200);
    await eventually(() => expect(modelCalls()).toHaveLength(1));
    expect((await patch(conversation.id, operator.headers, { aiEnabled: false })).statusCode).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(sendsTo(1002)).toEqual(["Answer: Hello"]);
    const after = await conversationOfChat(t, 1002);
    const draft = after.messages.find(
      (message: { text: string }) => message.text === "An answer nobody should see.",
    );
    expect(draft?.isDraft).toBe(true);
  });

  test("delivers two operators' replies in the order they were written", async () => {
    const conversation = await answeredChat(1003);
    const other = await memberOf(t.app, t.org, "member");
    const [first, second] = await Promise.all([
      reply(conversation.id, operator.headers, { text: "First reply" }),
      reply(conversation.id, other.headers, { text: "Second reply" }),
    ]);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    await eventually(() => expect(sendsTo(1003)).toHaveLength(3));
    const stored = (await conversationOfChat(t, 1003)).messages
      .filter((message: { user?: unknown }) => message.user)
      .map((message: { text: string }) => message.text);
    expect(sendsTo(1003).slice(1)).toEqual(stored);
  });

  test("answers a query in a conversation a person handles with an empty answer, free of charge", async () => {
    const client = t.app.client(t.org.auth);
    const first = await client.agents.query(t.agentId, { query: "Hi" });
    expect(first.status).toBe(200);
    const { conversationId } = first.body;
    expect((await patch(conversationId, t.org.auth, { aiEnabled: false })).statusCode).toBe(200);
    t.fake.requests.length = 0;
    const before = await client.consumptionEvents.list({});
    const handled = await client.agents.query(t.agentId, { query: "Still there?", conversationId });
    expect(handled.status).toBe(200);
    expect(handled.body).toMatchObject({
      answer: "",
      status: "HUMAN_REQUESTED",
      conversationId,
      usage: { totalTokens: 0, cost: 0 },
    });
    expect(modelCalls()).toHaveLength(0);
    const after = await client.consumptionEvents.list({});
    expect(after.body.data.length).toBe(before.body.data.length);
    const stored = await client.conversations.get(conversationId, { agentId: t.agentId });
    expect(stored.body.messages.at(-1)).toMatchObject({ from: "human", text: "Still there?" });
  });
});

describe("live events of a handoff", () => {
  test("streams the takeover and the operator's reply to /api/events as they happen", async () => {
    const conversation = await answeredChat(1005);
    const stream = await openSse(`${await t.app.listen("api")}/api/events`, t.org.auth);
    try {
      expect(stream.status).toBe(200);
      expect(
        (await patch(conversation.id, operator.headers, { aiEnabled: false })).statusCode,
      ).toBe(200);
      expect(
        (await reply(conversation.id, operator.headers, { text: "Sam here" })).statusCode,
      ).toBe(201);
      const events = await stream.waitFor(3);
      expect(events.map((event) => event.event)).toEqual([
        "conversation.updated",
        "conversation.human_requested",
        "message.created",
      ]);
      expect(JSON.parse(events[0]!.data)).toMatchObject({
        conversationId: conversation.id,
        agentId: t.agentId,
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
  test("announces a query's question and answer, and a customer asking for a person", async () => {
    const stream = await openSse(`${await t.app.listen("api")}/api/events`, t.org.auth);
    try {
      const client = t.app.client(t.org.auth);
      const asked = await client.agents.query(t.agentId, { query: "What are your hours?" });
      expect(asked.status).toBe(200);
      const first = await stream.waitFor(2);
      expect(first.map((event) => event.event)).toEqual(["message.created", "message.created"]);
      expect(first.map((event) => JSON.parse(event.data).message.from)).toEqual(["human", "agent"]);
      expect(JSON.parse(first[1]!.data)).toMatchObject({
        conversationId: asked.body.conversationId,
        message: { id: asked.body.messageId, text: asked.body.answer },
      });
      const human = await client.agents.query(t.agentId, {
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
  test("count handoffs by trigger, time the first reply, and gauge who waits", async () => {
    const conversation = await answeredChat(1006);
    expect((await deliver(1006, "I want to talk to a human")).statusCode).toBe(200);
    await eventually(async () =>
      expect((await conversationOfChat(t, 1006)).status).toBe("HUMAN_REQUESTED"),
    );
    // The customer who asked for a person was answered (the handover), then the AI stepped out.
    await eventually(() => expect(sendsTo(1006)).toHaveLength(2));
    expect((await conversationOfChat(t, 1006)).aiEnabled).toBe(false);
    const scrape = async () =>
      (
        await t.app.api.inject({
          url: "/metrics",
          headers: { authorization: "Bearer test-admin-token" },
        })
      ).body;
    const waiting = (body: string) =>
      Number(/agentdesk_conversations_waiting_for_human (\d+)/.exec(body)?.[1]);
    const before = await scrape();
    expect(before).toMatch(/agentdesk_handoffs_total\{trigger="customer"\} [1-9]/);
    expect(waiting(before)).toBeGreaterThanOrEqual(1);
    const replied = await reply(conversation.id, operator.headers, { text: "On it." });
    expect(replied.statusCode).toBe(201);
    const after = await scrape();
    expect(after).toMatch(/agentdesk_handoff_first_reply_seconds_count [1-9]/);
    expect(after).toMatch(/agentdesk_handoffs_total\{trigger="operator"\} [0-9]/);
    expect(
      (await patch(conversation.id, operator.headers, { status: "RESOLVED" })).statusCode,
    ).toBe(200);
    expect(waiting(await scrape())).toBe(waiting(before) - 1);
  });
});

describe("handoff refuses bad requests", () => {
  test("checks the body, the role, the organization and the assignee", async () => {
    const conversation = await answeredChat(1004);
    const url = conversation.id;
    expect((await reply(url, operator.headers, { text: "" })).statusCode).toBe(400);
    expect((await reply(url, operator.headers, { text: "x".repeat(4_001) })).statusCode).toBe(400);
    expect((await reply(url, operator.headers, {})).statusCode).toBe(400);
    expect((await patch(url, operator.headers, {})).statusCode).toBe(400);
    expect((await patch(url, operator.headers, { status: "CLOSED" })).statusCode).toBe(400);
    expect((await patch(url, operator.headers, { assigneeId: "nobody" })).statusCode).toBe(400);
    expect((await reply(url, viewer.headers, { text: "Hi" })).statusCode).toBe(403);
    expect((await patch(url, viewer.headers, { aiEnabled: false })).statusCode).toBe(403);
    const other = await t.app.createOrganization("Other");
    expect((await reply(url, other.auth, { text: "Hi" })).statusCode).toBe(404);
    expect((await patch(url, other.auth, { aiEnabled: false })).statusCode).toBe(404);
    const unknown = await reply("no-such-conversation", operator.headers, { text: "Hi" });
    expect(unknown.statusCode).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sendsTo(1004)).toHaveLength(1);
    expect((await conversationOfChat(t, 1004)).aiEnabled).toBe(true);
  });
});
