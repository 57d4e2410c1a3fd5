import { sql } from "drizzle-orm";
import { describe, expect, vi } from "vitest";
import { type TelegramApi, telegramTextUpdate } from "../fakes/telegram-api.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import {
  BOT_TOKEN,
  type ChannelBody,
  type ChannelFixtures,
  channelTest,
  createChannel,
  postInbound,
} from "./channel-helpers.ts";

// Each API process keeps the channels its webhooks read for up to a minute; these tests wait far
// less, so they pass only when the change itself reaches the process.
const NOTICED_WITHIN = { timeout: 5_000, interval: 50 };

const test = channelTest().extend(
  "second",
  { scope: "file" },
  async ({ app, env, fake }, { onCleanup }) => {
    // A second API process on the same database.
    const second = await startTestApp({
      env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.url, ...env },
      database: app.database,
      role: "api",
    });
    onCleanup(() => second.close());
    return second;
  },
);

type Webhook = { channel: ChannelBody; secret: string };

/**
 * A Telegram channel made through the first process, whose webhook both processes have accepted
 * once: each has read the channel and keeps it.
 */
async function channelBothRead(
  fixtures: ChannelFixtures,
  second: TestApp,
  telegram: TelegramApi,
): Promise<Webhook> {
  const channel = await createChannel(fixtures, {
    type: "telegram",
    name: "Support bot",
    config: { botToken: BOT_TOKEN },
  });
  const webhook = { channel, secret: telegram.webhookOf(BOT_TOKEN)!.secret_token! };
  for (const app of [fixtures.app, second]) expect(await statusOf(app, webhook)).toBe(200);
  return webhook;
}

let nextUpdate = 5_000;
/** The status a process answers a new Telegram update to the channel's webhook with. */
async function statusOf(app: TestApp, { channel, secret }: Webhook): Promise<number> {
  nextUpdate += 1;
  const update = telegramTextUpdate({
    updateId: nextUpdate,
    messageId: nextUpdate,
    chatId: 42,
    from: { id: 42, first_name: "Ada" },
    text: `Message ${nextUpdate}`,
  });
  const response = await postInbound(app, channel, JSON.stringify(update), {
    "x-telegram-bot-api-secret-token": secret,
  });
  return response.statusCode;
}

/** Through one process's API: `changes` as a PATCH (200), or the channel deleted (204). */
async function changeChannel(
  app: TestApp,
  org: TestOrganization,
  { channel }: Webhook,
  changes?: { enabled: boolean },
) {
  const response = await app.api.inject({
    method: changes ? "PATCH" : "DELETE",
    url: `/api/channels/${channel.id}`,
    headers: org.auth,
    ...(changes ? { payload: changes } : {}),
  });
  expect(response.statusCode, response.body).toBe(changes ? 200 : 204);
}

describe("channels that API processes have read for their webhooks", () => {
  test("refuse a webhook at once in the process that disabled the channel, promptly in the other", async ({
    app: first,
    second,
    org,
    agent,
    telegram,
  }) => {
    const webhook = await channelBothRead({ app: first, org, agent }, second, telegram);

    await changeChannel(first, org, webhook, { enabled: false });
    expect(await statusOf(first, webhook)).toBe(404);
    await vi.waitFor(async () => expect(await statusOf(second, webhook)).toBe(404), NOTICED_WITHIN);

    await changeChannel(second, org, webhook, { enabled: true });
    expect(await statusOf(second, webhook)).toBe(200);
    await vi.waitFor(async () => expect(await statusOf(first, webhook)).toBe(200), NOTICED_WITHIN);
  });

  test("follow a change made in SQL", async ({ app: first, second, org, agent, telegram }) => {
    const webhook = await channelBothRead({ app: first, org, agent }, second, telegram);
    await first.database.db.execute(
      sql`update channels set enabled = false where id = ${webhook.channel.id}`,
    );
    for (const app of [first, second]) {
      await vi.waitFor(async () => expect(await statusOf(app, webhook)).toBe(404), NOTICED_WITHIN);
    }
  });

  test("answer 404 once the channel is deleted", async ({
    app: first,
    second,
    org,
    agent,
    telegram,
  }) => {
    const webhook = await channelBothRead({ app: first, org, agent }, second, telegram);
    await changeChannel(first, org, webhook);
    expect(await statusOf(first, webhook)).toBe(404);
    await vi.waitFor(async () => expect(await statusOf(second, webhook)).toBe(404), NOTICED_WITHIN);
  });
});
