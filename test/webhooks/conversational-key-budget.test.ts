import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { memberOf } from "../harness/accounts.ts";
import type { TestApp } from "../harness/app.ts";
import { posts, waitForPosts, webhookTest } from "./webhook-helpers.ts";

const test = webhookTest();

/** What the key has been charged: its ledger events and its month's spending (micro-credits). */
async function chargedTo(app: TestApp, apiKeyId: string) {
  const [events] = rowsOf<{ n: number; micro: string }>(
    await app.database.db.execute(sql`select count(*)::int as n,
      coalesce(sum(credits_charged_micro), 0)::text as micro
      from consumption_events where api_key_id = ${apiKeyId}`),
  );
  const [spending] = rowsOf<{ micro: string | null }>(
    await app.database.db.execute(
      sql`select sum(spent_micro)::text as micro from api_key_spending where api_key_id = ${apiKeyId}`,
    ),
  );
  return { events: events!.n, charged: Number(events!.micro), spent: Number(spending!.micro ?? 0) };
}

describe("answers queued by conversational mode", () => {
  test("are held and charged within the monthly budget of the key that asked", async ({
    app,
    org,
    agent,
    fake,
    receiver,
  }) => {
    const owner = await memberOf(app, org, "owner");
    const created = await app.api.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: owner.headers,
      payload: { name: "conversational", monthlyCreditBudget: 0.000005 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, key } = created.json();
    const keyed = { ...org, auth: { authorization: `Bearer ${key}` } };
    const webhookUrl = `${receiver.url}/hook`;

    fake.script({ text: "The first answer." });
    const first = await app
      .client(keyed.auth)
      .agents.query(agent.id, { query: "First question?", webhookUrl });
    expect(first.body.status).toBe("queued");
    await waitForPosts(receiver, 1);
    expect(await chargedTo(app, id)).toEqual({ events: 1, charged: 5, spent: 5 });

    const modelCalls = fake.requests.length;
    const second = await app.client(keyed.auth).agents.query(agent.id, {
      query: "Second question?",
      webhookUrl,
      conversationId: first.body.conversationId,
    });
    expect(second.body.status).toBe("queued");
    const [, refused] = await waitForPosts(receiver, 2);
    expect(JSON.parse(refused!.body)).toMatchObject({ status: "error" });
    expect(refused!.body).toContain("budget");
    // Refused before the model was asked; nothing spent past the budget.
    expect(fake.requests.length).toBe(modelCalls);
    expect(await chargedTo(app, id)).toEqual({ events: 1, charged: 5, spent: 5 });
    expect(posts(receiver)).toHaveLength(2);
  });
});
