import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { createAgent } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import type { Untyped } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { createDatastore } from "../knowledge/knowledge-helpers.ts";
import { balanceOf, grantCredits } from "./billing-helpers.ts";

const test = appTest();

const chatRequests = (fake: FakeOpenAI) =>
  fake.requests.filter((request) => request.path.endsWith("/chat/completions")).length;

/** The organization's one chat event, through the API (fails when there is not exactly one). */
async function onlyChatEvent(app: TestApp, org: TestOrganization) {
  const listed = await app.client(org.auth).consumptionEvents.list({ feature: "chat" });
  const { data }: Untyped = listed.body;
  const [event, ...others] = data;
  expect(event).toBeDefined();
  expect(others).toEqual([]);
  return event;
}

describe("agent queries are metered through billing", () => {
  test("writes a chat event with the answer's token counts, priced by the registry", async ({
    app,
  }) => {
    const org = await app.createOrganization("Metered chat");
    await grantCredits(app, org.id, 5);
    const agent = await createAgent(app, org, { name: "Pricing bot" });
    const response = await app
      .client(org.auth)
      .agents.query(agent.id, { query: "how much does shipping cost" });
    expect(response.status, response.text).toBe(200);
    const answer = response.body;

    const event = await onlyChatEvent(app, org);
    const { promptTokens, completionTokens } = answer.usage;
    // gpt-4o-mini: 0.15 credits per million input tokens, 0.60 per million output tokens.
    const expected = Math.round(promptTokens * 0.15 + completionTokens * 0.6) / 1_000_000;
    expect(event).toMatchObject({
      feature: "chat",
      provider: "openai",
      modelName: "gpt-4o-mini",
      inputTokens: promptTokens,
      outputTokens: completionTokens,
      creditsCharged: expected,
      conversationId: answer.conversationId,
      messageId: answer.messageId,
      agent: { id: agent.id, name: "Pricing bot" },
    });
    expect((await balanceOf(app, org)).credits?.used).toBe(expected);
  });

  test("the free plan answers 5 messages, then 402 before any model call", async ({
    app,
    fake,
  }) => {
    const org = await app.createOrganization("Free chat");
    const agent = await createAgent(app, org);
    const before = chatRequests(fake);
    for (let message = 1; message <= 5; message += 1) {
      const response = await app
        .client(org.auth)
        .agents.query(agent.id, { query: `question ${message}` });
      expect(response.status, response.text).toBe(200);
    }
    const refused = await app.client(org.auth).agents.query(agent.id, { query: "one more" });
    expect(refused.status).toBe(402);
    expect(refused.error.type).toBe("USAGE_LIMIT");
    expect(chatRequests(fake) - before).toBe(5);
    expect(await balanceOf(app, org)).toMatchObject({
      canRun: false,
      blockReason: "free_plan_limit",
    });
  });

  test("an organization out of credits gets 402 on the query path too", async ({ app, fake }) => {
    const org = await app.createOrganization("Spent");
    await grantCredits(app, org.id, 0.000001);
    const agent = await createAgent(app, org);
    expect((await app.client(org.auth).agents.query(agent.id, { query: "first" })).status).toBe(
      200,
    );
    expect(await balanceOf(app, org)).toMatchObject({ blockReason: "no_credits" });
    const before = chatRequests(fake);
    expect((await app.client(org.auth).agents.query(agent.id, { query: "second" })).status).toBe(
      402,
    );
    expect(chatRequests(fake)).toBe(before);
  });

  test("an agent with a datastore gets 402 before any model call too, ahead of a bad conversation", async ({
    app,
    fake,
  }) => {
    const org = await app.createOrganization("Spent with knowledge");
    const datastore = await createDatastore(app, org, { name: "Manuals" });
    const agent = await createAgent(app, org, { datastoreIds: [datastore.id] });
    const other = await createAgent(app, org, { name: "Other" });
    const theirs = (await app.client(org.auth).agents.query(other.id, { query: "hello" })).body
      .conversationId;
    for (let message = 2; message <= 5; message += 1) {
      const response = await app
        .client(org.auth)
        .agents.query(agent.id, { query: `question ${message}` });
      expect(response.status, response.text).toBe(200);
    }
    const before = chatRequests(fake);

    const refused = await app.client(org.auth).agents.query(agent.id, { query: "one more" });
    expect(refused.status).toBe(402);
    expect(refused.error).toMatchObject({ type: "USAGE_LIMIT" });
    const refusedFirst = await app.client(org.auth).agents.query(agent.id, {
      query: "one more",
      conversationId: theirs,
    });
    expect(refusedFirst.status).toBe(402);
    expect(chatRequests(fake)).toBe(before);

    await grantCredits(app, org.id, 0.000001);
    expect((await app.client(org.auth).agents.query(agent.id, { query: "paid" })).status).toBe(200);
    expect(await balanceOf(app, org)).toMatchObject({ blockReason: "no_credits" });
    expect((await app.client(org.auth).agents.query(agent.id, { query: "spent" })).status).toBe(
      402,
    );
    expect(chatRequests(fake)).toBe(before + 1);
  });

  test("charges a turn the database refused, and stores nothing of it", async ({ app }) => {
    const org = await app.createOrganization("Refused turn");
    await grantCredits(app, org.id, 5);
    const agent = await createAgent(app, org);
    const { db } = app.database;
    await db.execute(sql`
      create function refuse_marked_message() returns trigger language plpgsql as $$
      begin
        if new.text = 'refuse this turn' then raise exception 'refused by the test'; end if;
        return new;
      end $$`);
    await db.execute(sql`
      create trigger refuse_marked_message before insert on messages
      for each row execute function refuse_marked_message()`);
    try {
      const refused = await app
        .client(org.auth)
        .agents.query(agent.id, { query: "refuse this turn" });
      expect(refused.status).toBe(500);
      expect(refused.error.type).toBe("INTERNAL");
    } finally {
      await db.execute(sql`drop trigger refuse_marked_message on messages`);
      await db.execute(sql`drop function refuse_marked_message()`);
    }

    const event = await onlyChatEvent(app, org);
    expect(event.creditsCharged).toBeGreaterThan(0);
    expect((await balanceOf(app, org)).credits?.used).toBe(event.creditsCharged);
    const conversations = await app.client(org.auth).conversations.list({ agentId: agent.id });
    expect(conversations.body).toMatchObject({ data: [] });
  });
});
