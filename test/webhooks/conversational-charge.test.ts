import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import type { Untyped } from "../harness/client.ts";
import {
  conversationOf,
  deliveriesOf,
  posts,
  waitForPosts,
  webhookTest,
} from "./webhook-helpers.ts";

// A window's answer is charged in the transaction that stores it, as a query's answer is in its
// turn's statement: the charge commits exactly when the answer does, and a charge that fails is
// not swallowed. The database is made to fail once with triggers; a sequence counts the
// failures, since it keeps its count when their transaction rolls back.

const test = webhookTest().extend(
  "charges",
  { scope: "file" },
  ({ app, api, org, agent, fake, receiver }) => {
    const execute = (query: ReturnType<typeof sql>) => app.database.db.execute(query);

    const chatRequests = () =>
      fake.requests.filter((request) => request.path === "/v1/chat/completions");

    /** The chat events of a conversation, through the API. */
    async function chatEventsOf(conversationId: string) {
      const listed = await api.consumptionEvents.list({ feature: "chat" });
      const { data }: Untyped = listed.body;
      return (
        data as Array<{ conversationId: string; messageId: string; creditsCharged: number }>
      ).filter((event) => event.conversationId === conversationId);
    }

    async function sequenceValue(name: string): Promise<number> {
      const [row] = rowsOf<{ value: string }>(
        await execute(
          sql.raw(`select (case when is_called then last_value else 0 end)::text as value
        from ${name}`),
        ),
      );
      return Number(row!.value);
    }

    async function reservationsHeld(): Promise<number> {
      const [row] = rowsOf<{ n: number }>(
        await execute(sql`select count(*)::int as n from credit_reservations
        where organization_id = ${org.id}`),
      );
      return row!.n;
    }

    /** Asks once, then waits for the window's one answer (after the job's retry, 5 s later). */
    async function answerOnce(query: string) {
      const queued = await api.agents.query(agent.id, {
        query,
        webhookUrl: `${receiver.url}/hook`,
      });
      expect(queued.status, queued.text).toBe(200);
      const { conversationId } = queued.body;
      const [delivery] = await waitForPosts(receiver, 1, 40_000);
      // Give a wrongly scheduled second delivery the time to show up before counting.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return { conversationId, delivery: JSON.parse(delivery!.body) };
    }

    /** The window was answered once, charged once for that answer, and holds nothing more. */
    async function expectAnsweredAndChargedOnce(
      conversationId: string,
      delivery: { status: string; messageId: string },
    ) {
      expect(posts(receiver)).toHaveLength(1);
      expect(delivery.status).toBe("success");
      const deliveries = await deliveriesOf(app, org, conversationId);
      expect(deliveries).toHaveLength(1);
      const { messages } = await conversationOf(app, org, conversationId);
      expect(messages.map((message) => message.from)).toEqual(["human", "agent"]);
      expect(messages[1]!.id).toBe(delivery.messageId);
      const events = await chatEventsOf(conversationId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ messageId: delivery.messageId });
      expect(events[0]!.creditsCharged).toBeGreaterThan(0);
      expect(await reservationsHeld()).toBe(0);
    }
    return {
      execute,
      chatRequests,
      sequenceValue,
      answerOnce,
      expectAnsweredAndChargedOnce,
    };
  },
);

describe("a conversational answer's charge", () => {
  test("fails its window when it fails: nothing is stored or sent, and the retry answers and charges once", async ({
    charges,
  }) => {
    const { execute, chatRequests, sequenceValue, answerOnce, expectAnsweredAndChargedOnce } =
      charges;
    await execute(sql`create sequence refused_charges`);
    await execute(sql`
      create function refuse_first_charge() returns trigger language plpgsql as $$
      begin
        if new.feature = 'chat' and nextval('refused_charges') = 1 then
          raise exception 'charge refused by the test';
        end if;
        return new;
      end $$`);
    await execute(sql`
      create trigger refuse_first_charge before insert on consumption_events
      for each row execute function refuse_first_charge()`);
    try {
      const { conversationId, delivery } = await answerOnce("Is my parcel insured?");
      // The first answer was refused its charge, so the window was answered again.
      expect(await sequenceValue("refused_charges")).toBe(2);
      expect(chatRequests()).toHaveLength(2);
      await expectAnsweredAndChargedOnce(conversationId, delivery);
    } finally {
      await execute(sql`drop trigger refuse_first_charge on consumption_events`);
      await execute(sql`drop function refuse_first_charge()`);
      await execute(sql`drop sequence refused_charges`);
    }
  }, 60_000);

  test("commits with the answer's messages: an answer refused at commit is not charged", async ({
    charges,
  }) => {
    const { execute, chatRequests, sequenceValue, answerOnce, expectAnsweredAndChargedOnce } =
      charges;
    await execute(sql`create sequence refused_answers`);
    await execute(sql`create sequence charges_seen_before_commit`);
    // At commit, after the whole transaction ran: the first answer is refused, once its charge
    // was seen written beside it.
    await execute(sql`
      create function refuse_first_answer() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from consumption_events where message_id = new.id) then
          perform nextval('charges_seen_before_commit');
        end if;
        if nextval('refused_answers') = 1 then
          raise exception 'answer refused by the test';
        end if;
        return new;
      end $$`);
    await execute(sql`
      create constraint trigger refuse_first_answer after insert on messages
      deferrable initially deferred
      for each row when (new."from" = 'agent' and new.usage is not null)
      execute function refuse_first_answer()`);
    try {
      const { conversationId, delivery } = await answerOnce("Can I change the address?");
      expect(await sequenceValue("refused_answers")).toBe(2);
      // Both answers' charges were in their transaction; the first rolled back with it.
      expect(await sequenceValue("charges_seen_before_commit")).toBe(2);
      expect(chatRequests()).toHaveLength(2);
      await expectAnsweredAndChargedOnce(conversationId, delivery);
    } finally {
      await execute(sql`drop trigger refuse_first_answer on messages`);
      await execute(sql`drop function refuse_first_answer()`);
      await execute(sql`drop sequence charges_seen_before_commit`);
      await execute(sql`drop sequence refused_answers`);
    }
  }, 60_000);
});
