import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { newId } from "../../src/lib/ids.ts";
import { appendAgentMessage, sendFollowUp } from "../follow-ups/follow-up-helpers.ts";
import { createAgent } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { wavFile } from "../transcription/audio-builders.ts";
import { insertAgent, transcribe } from "../transcription/transcription-helpers.ts";
import { balanceOf, grantCredits } from "./billing-helpers.ts";

const test = appTest();

async function reservationsOf(app: TestApp, org: TestOrganization) {
  return rowsOf<{ id: string; amount_micro: string; agent_message: boolean }>(
    await app.database.db.execute(
      sql`select id, amount_micro::text, agent_message from credit_reservations
        where organization_id = ${org.id}`,
    ),
  );
}

/** A reservation as a process that died mid-answer leaves it. */
async function leaveReservation(
  app: TestApp,
  org: TestOrganization,
  credits: number,
  expiresInMs: number,
) {
  const id = newId();
  await app.database.db.execute(sql`
    insert into credit_reservations (id, organization_id, amount_micro, agent_message, expires_at)
    values (${id}, ${org.id}, ${Math.round(credits * 1e6)}, true,
      ${new Date(Date.now() + expiresInMs).toISOString()}::timestamptz)`);
  return id;
}

describe("credits reserved for an answer", () => {
  test("are held while the model runs and settled by the charge", async ({ app, fake }) => {
    const org = await app.createOrganization("Held while answering");
    await grantCredits(app, org.id, 0.01);
    const agent = await createAgent(app, org);
    fake.script({ text: "Slowly.", delayMs: 500 });

    const answering = app.client(org.auth).agents.query(agent.id, { query: "take your time" });
    await fake.waitFor((request) => request.path.endsWith("/chat/completions"));
    // The answer may cost up to its reservation, which holds everything left.
    const [held] = await reservationsOf(app, org);
    expect(Number(held?.amount_micro)).toBe(10_000);
    expect(held?.agent_message).toBe(true);
    expect(await balanceOf(app, org)).toMatchObject({
      canRun: false,
      blockReason: "no_credits",
      credits: { remaining: 0.01 },
    });
    const refused = await app.client(org.auth).agents.query(agent.id, { query: "and me?" });
    expect(refused.status).toBe(402);
    expect(refused.error.type).toBe("USAGE_LIMIT");

    const answered = await answering;
    expect(answered.status, answered.text).toBe(200);
    expect(await reservationsOf(app, org)).toEqual([]);
    const balance = await balanceOf(app, org);
    expect(balance.canRun).toBe(true);
    expect(balance.credits?.used).toBe(answered.body.usage.cost);
  });

  test("are released when the provider fails before answering", async ({ app, fake }) => {
    const org = await app.createOrganization("Provider down");
    await grantCredits(app, org.id, 1);
    const agent = await createAgent(app, org);
    fake.script(
      { status: 500, errorMessage: "boom" },
      { status: 500, errorMessage: "boom" },
      { status: 500, errorMessage: "boom" },
    );
    const failed = await app.client(org.auth).agents.query(agent.id, { query: "hello?" });
    expect(failed.status).toBe(500);
    expect(await reservationsOf(app, org)).toEqual([]);
    expect(await balanceOf(app, org)).toMatchObject({ canRun: true, credits: { used: 0 } });
  });

  test("are released when an attachment is refused after the reservation", async ({ app }) => {
    const org = await app.createOrganization("Unreachable attachment");
    await grantCredits(app, org.id, 1);
    const agent = await createAgent(app, org);
    const refused = await app.client(org.auth).agents.query(agent.id, {
      query: "read this",
      attachments: [{ url: "http://127.0.0.1:9/file.txt" }],
    });
    expect(refused.status).toBe(400);
    expect(await reservationsOf(app, org)).toEqual([]);
    expect(await balanceOf(app, org)).toMatchObject({ canRun: true, credits: { used: 0 } });
  });

  test("left by a process that died stop counting when they expire", async ({ app }) => {
    const org = await app.createOrganization("Crashed holder");
    await grantCredits(app, org.id, 2);
    const agent = await createAgent(app, org);
    const stale = await leaveReservation(app, org, 2, 60_000);

    const refused = await app.client(org.auth).agents.query(agent.id, { query: "anything left?" });
    expect(refused.status).toBe(402);
    expect(await balanceOf(app, org)).toMatchObject({ canRun: false, blockReason: "no_credits" });

    await app.database.db.execute(
      sql`update credit_reservations set expires_at = now() - interval '1 second'
        where id = ${stale}`,
    );
    expect((await balanceOf(app, org)).canRun).toBe(true);
    const answered = await app
      .client(org.auth)
      .agents.query(agent.id, { query: "anything left now?" });
    expect(answered.status, answered.text).toBe(200);
    // The next reservation deleted the expired row; the answer's own was settled.
    expect(await reservationsOf(app, org)).toEqual([]);
  });

  test("once settled are not read again by the next reservations", async ({ app }) => {
    const { db } = app.database;
    const org = await app.createOrganization("Many settled");
    await grantCredits(app, org.id, 100);
    const agent = await createAgent(app, org);
    for (let turn = 0; turn < 60; turn += 1) {
      const answered = await app
        .client(org.auth)
        .agents.query(agent.id, { query: `question ${turn}` });
      expect(answered.status, answered.text).toBe(200);
    }
    // Index entries read by this transaction alone, every scan kind counted: the pool's
    // other backends flush their statistics late, so the database-wide counters would let
    // the 60 answers' own reads land inside the measurement.
    class Measured extends Error {
      constructor(readonly read: number) {
        super("rolled back");
      }
    }
    // Rolled back, so the two reservations it makes leave no live row for the next try.
    const measure = () =>
      db
        .transaction(async (tx) => {
          const entriesRead = async () => {
            const [row] = rowsOf<{ read: string }>(
              await tx.execute(sql`select pg_stat_get_xact_tuples_returned(
            'credit_reservations_organization_idx'::regclass)::text as read`),
            );
            return Number(row?.read);
          };
          const reserve = (id: string) =>
            tx.execute(sql`select count(*) from billing_reserve(${id}, ${org.id}, 0, true,
          now(), now() + interval '1 minute')`);
          await reserve(newId());
          const before = await entriesRead();
          await reserve(newId());
          throw new Measured((await entriesRead()) - before);
        })
        .then(
          () => Number.NaN,
          (error: unknown) => {
            if (error instanceof Measured) return error.read;
            throw error;
          },
        );
    // A settled row's index entry is still read until PostgreSQL marks it dead, which it can
    // only do once no open transaction may see the row: on a server busy with other tests that
    // takes a while (another file's transaction may stay open for seconds), so the fewest reads
    // of the tries within 20 s is the figure (and the test may take a minute).
    let readDuring = await measure();
    const deadline = Date.now() + 20_000;
    while (readDuring > 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      readDuring = Math.min(readDuring, await measure());
    }
    // The live reservation of the first call, not the 60 settled ones.
    expect(readDuring).toBeLessThanOrEqual(2);
    await db.execute(sql`delete from credit_reservations where organization_id = ${org.id}`);
  }, 60_000);

  test("are made by a statement that keeps its generic plan", async ({ app }) => {
    const { db } = app.database;
    const org = await app.createOrganization("Planned once");
    // As the agent query reserves: the question's lexemes beside the reservation, one row.
    const name = `reserve_with_lexemes_${newId()}`;
    const plans = await db.transaction(async (tx) => {
      await tx.execute(
        sql.raw(`prepare ${name}(text, text, text) as
          select r.reserved, tsvector_to_array(to_tsvector('english', $3)) as lexemes
          from billing_reserve($1, $2, 0, true, now(), now() + interval '1 minute') as r`),
      );
      for (let run = 0; run < 8; run += 1) {
        await tx.execute(sql.raw(`execute ${name}('${newId()}', '${org.id}', 'parcel ${run}')`));
      }
      const [row] = rowsOf<{ generic_plans: string; custom_plans: string }>(
        await tx.execute(sql`select generic_plans::text, custom_plans::text
          from pg_prepared_statements where name = ${name}`),
      );
      await tx.execute(sql.raw(`deallocate ${name}`));
      return row;
    });
    // The first five executions are planned for their values, as PostgreSQL always does.
    expect(plans).toEqual({ generic_plans: "3", custom_plans: "5" });
    await db.execute(sql`delete from credit_reservations where organization_id = ${org.id}`);
  });

  test("count as used messages on the free plan", async ({ app }) => {
    const org = await app.createOrganization("Free, all held");
    const agent = await createAgent(app, org);
    for (let held = 0; held < 5; held += 1) await leaveReservation(app, org, 0, 60_000);
    const refused = await app.client(org.auth).agents.query(agent.id, { query: "one more?" });
    expect(refused.status).toBe(402);
    expect(refused.error.details).toEqual([{ path: "blockReason", message: "free_plan_limit" }]);
    expect(await reservationsOf(app, org)).toHaveLength(5);
  });
});

describe("follow-ups and transcriptions reserve too", () => {
  test("a follow-up settles its reservation, or releases it when the model fails", async ({
    app,
    fake,
  }) => {
    const org = await app.createOrganization("Follow-ups held");
    await grantCredits(app, org.id, 1);
    const agent = await createAgent(app, org);
    const { conversationId } = await appendAgentMessage(app, org, agent.id, {
      query: "Your order shipped.",
    });

    const written = await sendFollowUp(app, org, agent.id, {
      conversationId,
      skipFilter: true,
      prompt: "Check in kindly.",
    });
    expect(written.status, written.text).toBe(200);
    expect(await reservationsOf(app, org)).toEqual([]);

    fake.script(
      { status: 500, errorMessage: "boom" },
      { status: 500, errorMessage: "boom" },
      { status: 500, errorMessage: "boom" },
    );
    const failed = await sendFollowUp(app, org, agent.id, {
      conversationId,
      skipFilter: true,
      prompt: "Check in kindly.",
    });
    expect(failed.status).toBe(500);
    expect(await reservationsOf(app, org)).toEqual([]);
  });

  test("a transcription is refused while its price is held by others", async ({ app, fake }) => {
    const org = await app.createOrganization("Transcriptions held");
    await grantCredits(app, org.id, 1);
    const agentId = await insertAgent(app, org, "public");
    const stale = await leaveReservation(app, org, 1, 60_000);
    const audio = { bytes: wavFile({ seconds: 2 }), name: "note.wav", type: "audio/wav" };

    expect((await transcribe(app, { agentId, file: audio })).statusCode).toBe(402);
    await app.database.db.execute(sql`delete from credit_reservations where id = ${stale}`);
    fake.scriptTranscription({ text: "Hello." });
    const transcribed = await transcribe(app, { agentId, file: audio });
    expect(transcribed.statusCode, transcribed.body).toBe(200);
    expect(await reservationsOf(app, org)).toEqual([]);
  });
});
