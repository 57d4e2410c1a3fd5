import { describe, expect } from "vitest";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import {
  type TelegramApi,
  telegramTextUpdate,
  telegramVoiceUpdate,
} from "../fakes/telegram-api.ts";
import { createAgent } from "../harness/agents.ts";
import type { TestApp } from "../harness/app.ts";
import { oggOpusFile } from "../transcription/audio-builders.ts";
import {
  BOT_TOKEN,
  type ChannelBody,
  channelTest,
  chatRequests,
  conversationOfChat,
  createChannel,
  eventually,
  postInbound,
  telegramSendsTo,
} from "./channel-helpers.ts";

const test = channelTest();

let channel: ChannelBody;
let secret: string;
test.beforeAll(async ({ app, org, agent, telegram }) => {
  await app
    .client(org.auth)
    .agents.update(agent.id, { unavailableMessage: "We are away; a person will answer soon." });
  channel = await createChannel(
    { app, org, agent },
    { type: "telegram", config: { botToken: BOT_TOKEN } },
  );
  secret = telegram.webhookOf(BOT_TOKEN)!.secret_token!;
});

let nextId = 5_000;
function textUpdate(chatId: number, text: string) {
  nextId += 1;
  return telegramTextUpdate({
    updateId: nextId,
    messageId: nextId,
    chatId,
    from: { id: chatId, first_name: `Customer ${chatId}` },
    text,
  });
}
const deliver = (
  app: TestApp,
  body: unknown,
  to: Pick<ChannelBody, "webhookUrl"> = channel,
  token = secret,
) => postInbound(app, to, JSON.stringify(body), { "x-telegram-bot-api-secret-token": token });
const sendsTo = (telegram: TelegramApi, chatId: number) => telegramSendsTo(telegram, chatId);
const modelCalls = (fake: FakeOpenAI) => chatRequests(fake);

describe("answers on a channel", () => {
  test("transcribes a voice note, answers it, and charges the transcription", async ({
    app,
    org,
    agent,
    fake,
    telegram,
  }) => {
    const fileId = telegram.addFile(BOT_TOKEN, oggOpusFile({ packets: 150 }));
    fake.scriptTranscription({ text: "Do you deliver to Oslo?" });
    fake.script({ text: "Yes, we deliver to Oslo." });
    nextId += 1;
    const voice = telegramVoiceUpdate({
      updateId: nextId,
      messageId: nextId,
      chatId: 601,
      from: { id: 601, first_name: "Vo" },
      fileId,
      duration: 3,
    });
    expect((await deliver(app, voice)).statusCode).toBe(200);
    await eventually(() => expect(sendsTo(telegram, 601)).toEqual(["Yes, we deliver to Oslo."]));
    const conversation = await conversationOfChat({ app, org, agent }, 601);
    expect(conversation.messages[0]).toMatchObject({
      from: "human",
      text: "Do you deliver to Oslo?",
      metadata: { voice: true },
    });
    expect(JSON.stringify(conversation)).not.toContain(BOT_TOKEN);
    expect(JSON.stringify(conversation)).not.toContain("/file/bot");
    const events = await app.client(org.auth).consumptionEvents.list({ feature: "transcription" });
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0]).toMatchObject({ feature: "transcription", units: 3 });
  });

  test("answers each of two interleaved conversations in the order it was written", async ({
    app,
    org,
    agent,
    telegram,
  }) => {
    for (let round = 1; round <= 3; round += 1) {
      expect((await deliver(app, textUpdate(701, `first chat, message ${round}`))).statusCode).toBe(
        200,
      );
      expect(
        (await deliver(app, textUpdate(702, `second chat, message ${round}`))).statusCode,
      ).toBe(200);
      // Each round answered before the next is written: each message is a turn of its own.
      await eventually(() => {
        expect(sendsTo(telegram, 701)).toHaveLength(round);
        expect(sendsTo(telegram, 702)).toHaveLength(round);
      });
    }
    // The fake model's answer repeats the message it answers.
    for (const [chatId, name] of [
      [701, "first"],
      [702, "second"],
    ] as const) {
      const answered = sendsTo(telegram, chatId).map((text) =>
        /(\w+) chat, message (\d)/.exec(text)?.slice(1),
      );
      expect(answered).toEqual([1, 2, 3].map((n) => [name, String(n)]));
      const { messages } = await conversationOfChat({ app, org, agent }, chatId);
      const { version } = (await app.client(org.auth).agents.get(agent.id)).body;
      expect(
        messages.map((message: { from: string; agentVersion: number | null }) => [
          message.from,
          message.agentVersion,
        ]),
      ).toEqual([
        ["human", null],
        ["agent", version],
        ["human", null],
        ["agent", version],
        ["human", null],
        ["agent", version],
      ]);
    }
  });

  test("sends the agent's unavailableMessage when the model fails after its retries", async ({
    app,
    org,
    agent,
    fake,
    telegram,
  }) => {
    fake.script({ status: 500 }, { status: 500 }, { status: 500 });
    expect((await deliver(app, textUpdate(801, "Hello?"))).statusCode).toBe(200);
    await eventually(() =>
      expect(sendsTo(telegram, 801)).toEqual(["We are away; a person will answer soon."]),
    );
    const { messages } = await conversationOfChat({ app, org, agent }, 801);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({
      from: "agent",
      text: "We are away; a person will answer soon.",
      metadata: { unavailable: { reason: expect.any(String) } },
      delivery: { status: "sent" },
      // Not an answer: the agent's setting, not its versioned fields, wrote it.
      agentVersion: null,
    });
  });

  test("never calls the model without credits: unavailableMessage, or nothing without one", async ({
    app,
    fake,
    telegram,
  }) => {
    const broke = await app.createOrganization("Broke");
    await app.admin.admin.grantCredits(broke.id, { amount: 0.000001 });
    const withMessage = await createAgent(app, broke, { unavailableMessage: "Back tomorrow." });
    const silent = await createAgent(app, broke);
    const owner = { app, org: broke };
    const loud = await createChannel(
      { ...owner, agent: withMessage },
      {
        type: "telegram",
        config: { botToken: BOT_TOKEN },
      },
    );
    const loudSecret = telegram.webhookOf(BOT_TOKEN)!.secret_token!;
    // The first answer spends more than the organization's last credits.
    const first = await deliver(app, textUpdate(901, "Anyone there?"), loud, loudSecret);
    expect(first.statusCode).toBe(200);
    await eventually(() => expect(sendsTo(telegram, 901)).toEqual(["Answer: Anyone there?"]));
    const before = modelCalls(fake).length;
    expect((await deliver(app, textUpdate(901, "Hello?"), loud, loudSecret)).statusCode).toBe(200);
    await eventually(() =>
      expect(sendsTo(telegram, 901)).toEqual(["Answer: Anyone there?", "Back tomorrow."]),
    );
    expect(modelCalls(fake).length).toBe(before);

    const quiet = await createChannel(
      { ...owner, agent: silent },
      {
        type: "telegram",
        config: { botToken: BOT_TOKEN },
      },
    );
    const quietSecret = telegram.webhookOf(BOT_TOKEN)!.secret_token!;
    expect((await deliver(app, textUpdate(902, "Anyone?"), quiet, quietSecret)).statusCode).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(sendsTo(telegram, 902)).toEqual([]);
    expect(modelCalls(fake).length).toBe(before);
  });

  test("erases the lane with the conversation, and starts a new one with the next message", async ({
    app,
    org,
    agent,
    telegram,
  }) => {
    const before = await conversationOfChat({ app, org, agent }, 701);
    const erased = await app.api.inject({
      method: "DELETE",
      url: `/api/conversations/${before.id}?agentId=${agent.id}`,
      headers: org.auth,
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const lanes = await app.database.db.execute(
      `select count(*)::int as count from channel_threads where thread_key = '701'`,
    );
    expect((lanes as unknown as { rows: Array<{ count: number }> }).rows[0]!.count).toBe(0);
    expect((await deliver(app, textUpdate(701, "first chat, after erasure"))).statusCode).toBe(200);
    await eventually(() => expect(sendsTo(telegram, 701)).toHaveLength(4));
    const after = await conversationOfChat({ app, org, agent }, 701);
    expect(after.id).not.toBe(before.id);
    expect(after.messages.map((message: { text: string }) => message.text)[0]).toBe(
      "first chat, after erasure",
    );
  });

  test("shows channel conversations in the CSV export filtered by channel", async ({
    app,
    org,
    agent,
  }) => {
    const csv = await app
      .client(org.auth)
      .agents.exportConversations(agent.id, { channel: "telegram" });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain("second chat, message 1");
    const none = await app
      .client(org.auth)
      .agents.exportConversations(agent.id, { channel: "slack" });
    expect(none.text).not.toContain("second chat");
  });
});
