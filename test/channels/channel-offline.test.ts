import { describe, expect } from "vitest";
import { telegramTextUpdate } from "../fakes/telegram-api.ts";
import {
  BOT_TOKEN,
  type ChannelBody,
  channelTest,
  createChannel,
  postInbound,
  telegramSendsTo,
} from "./channel-helpers.ts";

// A default install: no provider key, so the offline responder answers the channel's customers.
const test = channelTest({ env: { OPENAI_API_KEY: "" } });

let channel: ChannelBody;
test.beforeAll(async ({ app, org, agent }) => {
  channel = await createChannel(
    { app, org, agent },
    { type: "telegram", name: "Support bot", config: { botToken: BOT_TOKEN } },
  );
});

describe("an offline answer to a Telegram customer", () => {
  test("says only that the knowledge base can be quoted, without the operator's hint", async ({
    app,
    fake,
    telegram,
  }) => {
    const secret = telegram.webhookOf(BOT_TOKEN)!.secret_token!;
    const update = telegramTextUpdate({
      updateId: 7_001,
      messageId: 7_001,
      chatId: 77,
      from: { id: 77, first_name: "Grace" },
      text: "When do you open?",
    });
    const response = await postInbound(app, channel, JSON.stringify(update), {
      "x-telegram-bot-api-secret-token": secret,
    });
    expect(response.statusCode).toBe(200);
    await telegram.waitForCalls("sendMessage", 1);
    expect(telegramSendsTo(telegram, 77)).toEqual([
      "I can only quote the knowledge base, and no knowledge was found for this question.",
    ]);
    expect(fake.requests).toHaveLength(0);
  });
});
