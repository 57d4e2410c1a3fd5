import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { telegramTextUpdate } from "../fakes/telegram-api.ts";
import type { TestApp } from "../harness/app.ts";
import type { Untyped } from "../harness/client.ts";
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

// A channel's answer is charged in the transaction that stores it and queues its sends: a
// charge the database refuses sends nothing, and the lane's retry answers once, charged once.

const test = channelTest();

let channel: ChannelBody;
let secret: string;
test.beforeAll(async ({ app, org, agent, telegram }) => {
  channel = await createChannel(
    { app, org, agent },
    { type: "telegram", config: { botToken: BOT_TOKEN } },
  );
  secret = telegram.webhookOf(BOT_TOKEN)!.secret_token!;
});

const execute = (app: TestApp, query: ReturnType<typeof sql>) => app.database.db.execute(query);

describe("a channel answer's charge", () => {
  test("fails the turn when it fails: nothing is sent, and the retry answers and charges once", async ({
    app,
    org,
    agent,
    fake,
    telegram,
  }) => {
    // A sequence counts the refusals: it keeps its count when their transaction rolls back.
    await execute(app, sql`create sequence refused_channel_charges`);
    await execute(
      app,
      sql`
      create function refuse_first_channel_charge() returns trigger language plpgsql as $$
      begin
        if new.feature = 'chat' and nextval('refused_channel_charges') = 1 then
          raise exception 'charge refused by the test';
        end if;
        return new;
      end $$`,
    );
    await execute(
      app,
      sql`
      create trigger refuse_first_channel_charge before insert on consumption_events
      for each row execute function refuse_first_channel_charge()`,
    );
    try {
      const update = telegramTextUpdate({
        updateId: 9_001,
        messageId: 9_001,
        chatId: 901,
        from: { id: 901, first_name: "Customer" },
        text: "Do you ship to Bergen?",
      });
      const delivered = await postInbound(app, channel, JSON.stringify(update), {
        "x-telegram-bot-api-secret-token": secret,
      });
      expect(delivered.statusCode).toBe(200);
      await eventually(
        () => expect(telegramSendsTo(telegram, 901)).toEqual(["Answer: Do you ship to Bergen?"]),
        40_000,
      );
      // Give a wrongly queued second send the time to show up before counting.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(telegramSendsTo(telegram, 901)).toHaveLength(1);
      const [refused] = rowsOf<{ value: string }>(
        await execute(app, sql`select last_value::text as value from refused_channel_charges`),
      );
      expect(Number(refused!.value)).toBe(2);
      expect(chatRequests(fake)).toHaveLength(2);
    } finally {
      await execute(app, sql`drop trigger refuse_first_channel_charge on consumption_events`);
      await execute(app, sql`drop function refuse_first_channel_charge()`);
      await execute(app, sql`drop sequence refused_channel_charges`);
    }

    const conversation = await conversationOfChat({ app, org, agent }, 901);
    const messages = conversation.messages as Array<{ id: string; from: string }>;
    expect(messages.map((message) => message.from)).toEqual(["human", "agent"]);
    const listed = await app.client(org.auth).consumptionEvents.list({ feature: "chat" });
    const { data }: Untyped = listed.body;
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ messageId: messages[1]!.id });
    const [held] = rowsOf<{ n: number }>(
      await execute(
        app,
        sql`select count(*)::int as n from credit_reservations
        where organization_id = ${org.id}`,
      ),
    );
    expect(held!.n).toBe(0);
  }, 60_000);
});
