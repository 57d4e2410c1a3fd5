import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { telegramTextUpdate } from "../fakes/telegram-api.ts";
import {
  BOT_TOKEN,
  type ChannelBody,
  type ChannelTestApp,
  createChannel,
  postInbound,
  startChannelTestApp,
  telegramSendsTo,
} from "./channel-helpers.ts";

// A default install: no provider key, so the offline responder answers the channel's customers.
let t: ChannelTestApp;
let channel: ChannelBody;
beforeAll(async () => {
  t = await startChannelTestApp({ OPENAI_API_KEY: "" });
  channel = await createChannel(t, {
    type: "telegram",
    name: "Support bot",
    config: { botToken: BOT_TOKEN },
  });
});
afterAll(() => t.close());

describe("an offline answer to a Telegram customer", () => {
  test("says only that the knowledge base can be quoted, without the operator's hint", async () => {
    const secret = t.telegram.webhookOf(BOT_TOKEN)!.secret_token!;
    const update = telegramTextUpdate({
      updateId: 7_001,
      messageId: 7_001,
      chatId: 77,
      from: { id: 77, first_name: "Grace" },
      text: "When do you open?",
    });
    const response = await postInbound(t.app, channel, JSON.stringify(update), {
      "x-telegram-bot-api-secret-token": secret,
    });
    expect(response.statusCode).toBe(200);
    await t.telegram.waitForCalls("sendMessage", 1);
    expect(telegramSendsTo(t.telegram, 77)).toEqual([
      "I can only quote the knowledge base, and no knowledge was found for this question.",
    ]);
    expect(t.fake.requests).toHaveLength(0);
  });
});
