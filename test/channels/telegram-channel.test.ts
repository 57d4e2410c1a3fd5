import { describe, expect } from "vitest";
import {
  type TelegramApi,
  telegramBotMessageUpdate,
  telegramEditedUpdate,
  telegramTextUpdate,
} from "../fakes/telegram-api.ts";
import type { TestApp } from "../harness/app.ts";
import {
  BOT_TOKEN,
  type ChannelBody,
  channelTest,
  chatRequests,
  conversationsOf,
  createChannel,
  eventually,
  postInbound,
} from "./channel-helpers.ts";

const test = channelTest();

let channel: ChannelBody;
let secret: string;
test.beforeAll(async ({ app, org, agent, telegram }) => {
  channel = await createChannel(
    { app, org, agent },
    { type: "telegram", name: "Support bot", config: { botToken: BOT_TOKEN } },
  );
  secret = telegram.webhookOf(BOT_TOKEN)!.secret_token!;
});
test.beforeEach(({ telegram }) => {
  telegram.calls.length = 0;
});

let nextUpdate = 1_000;
type Sender = { id: number; first_name: string; last_name?: string };
const customer: Sender = { id: 42, first_name: "Ada", last_name: "Lovelace" };
function update(text: string, chatId = 42, from: Sender = customer) {
  nextUpdate += 1;
  return telegramTextUpdate({ updateId: nextUpdate, messageId: nextUpdate, chatId, from, text });
}
const send = (app: TestApp, body: unknown, token = secret) =>
  postInbound(app, channel, JSON.stringify(body), { "x-telegram-bot-api-secret-token": token });
const sentTexts = (telegram: TelegramApi) =>
  telegram.callsTo("sendMessage").map((call) => (call.body as { text: string }).text);

describe("a Telegram channel", () => {
  test("is created by checking the bot with getMe and registering the webhook with a secret", async ({
    agent,
    telegram,
  }) => {
    expect(channel).toMatchObject({
      agentId: agent.id,
      type: "telegram",
      name: "Support bot",
      enabled: true,
      status: "active",
      webhookUrl: `https://agents.example.com/channels/telegram/${channel.id}`,
      config: { botToken: `••••${BOT_TOKEN.slice(-4)}` },
      lastError: null,
      lastEventAt: null,
    });
    const webhook = telegram.webhookOf(BOT_TOKEN)!;
    expect(webhook.url).toBe(channel.webhookUrl);
    expect(webhook.allowed_updates).toEqual(["message"]);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
  });

  test("refuses a token Telegram does not know with 400, and stores nothing", async ({
    app,
    org,
    agent,
  }) => {
    const response = await app.api.inject({
      method: "POST",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
      payload: { type: "telegram", config: { botToken: "123:not-a-real-token" } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/Telegram refused/);
    const list = await app.api.inject({
      method: "GET",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
    });
    expect(list.json().data.map((row: ChannelBody) => row.id)).toEqual([channel.id]);
  });

  test("answers a message once, through sendMessage to the same chat, whatever the retries", async ({
    app,
    org,
    agent,
    fake,
    telegram,
  }) => {
    fake.script({ text: "We open at nine." });
    const body = update("When do you open?");
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await send(app, body);
      expect(response.statusCode).toBe(200);
    }
    await telegram.waitForCalls("sendMessage", 1);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(sentTexts(telegram)).toEqual(["We open at nine."]);
    expect(chatRequests(fake)).toHaveLength(1);
    expect(telegram.callsTo("sendMessage")[0]!.body).toMatchObject({ chat_id: "42" });

    const conversation = (await conversationsOf({ app, org, agent })).data.find(
      (row) => row.channel === "telegram",
    )!;
    expect(conversation.channelExternalId).toBe("42");
    const full = await app.api.inject({
      method: "GET",
      url: `/api/conversations/${conversation.id}?agentId=${agent.id}`,
      headers: org.auth,
    });
    const messages = full.json().messages;
    expect(
      messages.map((message: { from: string; text: string }) => [message.from, message.text]),
    ).toEqual([
      ["human", "When do you open?"],
      ["agent", "We open at nine."],
    ]);
    expect(messages[1].delivery).toEqual({
      status: "sent",
      platformMessageId: expect.stringMatching(/^42:\d+$/),
      error: null,
    });
    expect(full.json().contact).toMatchObject({ firstName: "Ada", lastName: "Lovelace" });
  });

  test("refuses a wrong or missing secret with 401 and stores nothing", async ({
    app,
    fake,
    telegram,
  }) => {
    const body = update("Ignore me");
    expect((await send(app, body, "wrong-secret")).statusCode).toBe(401);
    const missing = await postInbound(app, channel, JSON.stringify(body), {});
    expect(missing.statusCode).toBe(401);
    // The real delivery of the same update afterwards is new: nothing was recorded before.
    fake.script({ text: "Now I see it." });
    expect((await send(app, body)).statusCode).toBe(200);
    await telegram.waitForCalls("sendMessage", 1);
    expect(sentTexts(telegram)).toEqual(["Now I see it."]);
  });

  test("answers a burst of three messages as one turn", async ({ app, fake, telegram }) => {
    fake.script({ text: "One answer to all three." });
    // Sent together, as a platform delivers a burst: one after the other, a busy machine could
    // take longer than the batching delay between two of them and make it two turns.
    const from = { id: 77, first_name: "Bo" };
    const bodies = ["Hi", "I ordered a lamp", "It has not arrived"].map((text) =>
      update(text, 77, from),
    );
    const acks = await Promise.all(bodies.map((body) => send(app, body)));
    expect(acks.map((ack) => ack.statusCode)).toEqual([200, 200, 200]);
    await telegram.waitForCalls("sendMessage", 1);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(chatRequests(fake)).toHaveLength(1);
    const prompt = JSON.stringify(chatRequests(fake)[0]!.body);
    expect(prompt).toContain("I ordered a lamp");
    expect(prompt).toContain("It has not arrived");
    expect(sentTexts(telegram)).toEqual(["One answer to all three."]);
  });

  test("never answers bots, edits or messages older than the channel", async ({
    app,
    fake,
    telegram,
  }) => {
    const old = telegramTextUpdate({
      updateId: 9_001,
      messageId: 9_001,
      chatId: 5,
      from: customer,
      text: "Written before the channel existed",
      date: Math.floor(Date.now() / 1000) - 3_600,
    });
    const bot = telegramBotMessageUpdate({
      updateId: 9_002,
      messageId: 9_002,
      chatId: -5,
      from: customer,
      text: "beep",
    });
    const edit = telegramEditedUpdate({
      updateId: 9_003,
      messageId: 9_003,
      chatId: 5,
      from: customer,
      text: "edited",
    });
    for (const body of [old, bot, edit]) expect((await send(app, body)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(sentTexts(telegram)).toEqual([]);
    expect(chatRequests(fake)).toHaveLength(0);
  });

  test("splits a long answer into at most 3 messages within 4,096 characters, nothing cut off", async ({
    app,
    fake,
    telegram,
  }) => {
    const paragraph = (n: number) => `${"Lorem ipsum dolor sit amet. ".repeat(70).trim()} (${n})`;
    const long = [1, 2, 3, 4, 5].map(paragraph).join("\n\n");
    fake.script({ text: long });
    await send(app, update("Tell me everything", 88, { id: 88, first_name: "Cy" }));
    await telegram.waitForCalls("sendMessage", 3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const parts = sentTexts(telegram);
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4_096);
    expect(parts.join(" ").replace(/\s+/g, " ")).toBe(long.replace(/\s+/g, " "));
  });

  test("retries a send answered 429 after Retry-After and delivers it once", async ({
    app,
    fake,
    telegram,
  }) => {
    telegram.failNext("sendMessage", { status: 429, retryAfterSeconds: 1 });
    fake.script({ text: "Sorry for the wait." });
    await send(app, update("Are you there?", 99, { id: 99, first_name: "Di" }));
    const calls = await telegram.waitForCalls("sendMessage", 2, 20_000);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(telegram.callsTo("sendMessage")).toHaveLength(2);
    expect(sentTexts(telegram)).toEqual(["Sorry for the wait.", "Sorry for the wait."]);
  });

  test("shows when the platform last reached the channel", async ({ app, org }) => {
    const response = await app.api.inject({
      method: "GET",
      url: `/api/channels/${channel.id}`,
      headers: org.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().lastEventAt).toEqual(expect.any(String));
    expect(JSON.stringify(response.json())).not.toContain(BOT_TOKEN);
  });

  test("answers 404 to a disabled channel, and to an unknown one", async ({ app, org }) => {
    const patched = await app.api.inject({
      method: "PATCH",
      url: `/api/channels/${channel.id}`,
      headers: org.auth,
      payload: { enabled: false },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().enabled).toBe(false);
    expect((await send(app, update("Anyone?"))).statusCode).toBe(404);
    const unknown = await app.api.inject({
      method: "POST",
      url: "/channels/telegram/no-such-channel",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
      payload: JSON.stringify(update("Anyone?")),
    });
    expect(unknown.statusCode).toBe(404);
    await app.api.inject({
      method: "PATCH",
      url: `/api/channels/${channel.id}`,
      headers: org.auth,
      payload: { enabled: true },
    });
  });

  test("removes the webhook from Telegram when deleted", async ({ app, org, agent, telegram }) => {
    const other = await createChannel(
      { app, org, agent },
      { type: "telegram", config: { botToken: BOT_TOKEN } },
    );
    const deleted = await app.api.inject({
      method: "DELETE",
      url: `/api/channels/${other.id}`,
      headers: org.auth,
    });
    expect(deleted.statusCode).toBe(204);
    expect(telegram.callsTo("deleteWebhook")).toHaveLength(1);
    const gone = await app.api.inject({
      method: "GET",
      url: `/api/channels/${other.id}`,
      headers: org.auth,
    });
    expect(gone.statusCode).toBe(404);
    await eventually(() => expect(true).toBe(true));
  });
});
