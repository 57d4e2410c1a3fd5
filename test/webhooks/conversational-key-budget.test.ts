import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { memberOf } from "../harness/accounts.ts";
import type { TestOrganization } from "../harness/app.ts";
import {
  createConversationalAgent,
  posts,
  startWebhookTestApp,
  type WebhookTestApp,
  waitForPosts,
} from "./webhook-helpers.ts";

let t: WebhookTestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startWebhookTestApp();
  ({ org, agentId } = await createConversationalAgent(t.app));
}, 60_000);
afterAll(() => t.close());

/** What the key has been charged: its ledger events and its month's spending (micro-credits). */
async function chargedTo(apiKeyId: string) {
  const [events] = rowsOf<{ n: number; micro: string }>(
    await t.app.database.db.execute(sql`select count(*)::int as n,
      coalesce(sum(credits_charged_micro), 0)::text as micro
      from consumption_events where api_key_id = ${apiKeyId}`),
  );
  const [spending] = rowsOf<{ micro: string | null }>(
    await t.app.database.db.execute(
      sql`select sum(spent_micro)::text as micro from api_key_spending where api_key_id = ${apiKeyId}`,
    ),
  );
  return { events: events!.n, charged: Number(events!.micro), spent: Number(spending!.micro ?? 0) };
}

describe("answers queued by conversational mode", () => {
  test("are held and charged within the monthly budget of the key that asked", async () => {
    const owner = await memberOf(t.app, org, "owner");
    const created = await t.app.api.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: owner.headers,
      payload: { name: "conversational", monthlyCreditBudget: 0.000005 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, key } = created.json();
    const keyed = { ...org, auth: { authorization: `Bearer ${key}` } };
    const webhookUrl = `${t.receiver.url}/hook`;

    t.fake.script({ text: "The first answer." });
    const first = await t.app
      .client(keyed.auth)
      .agents.query(agentId, { query: "First question?", webhookUrl });
    expect(first.body.status).toBe("queued");
    await waitForPosts(t.receiver, 1);
    expect(await chargedTo(id)).toEqual({ events: 1, charged: 5, spent: 5 });

    const modelCalls = t.fake.requests.length;
    const second = await t.app.client(keyed.auth).agents.query(agentId, {
      query: "Second question?",
      webhookUrl,
      conversationId: first.body.conversationId,
    });
    expect(second.body.status).toBe("queued");
    const [, refused] = await waitForPosts(t.receiver, 2);
    expect(JSON.parse(refused!.body)).toMatchObject({ status: "error" });
    expect(refused!.body).toContain("budget");
    // Refused before the model was asked; nothing spent past the budget.
    expect(t.fake.requests.length).toBe(modelCalls);
    expect(await chargedTo(id)).toEqual({ events: 1, charged: 5, spent: 5 });
    expect(posts(t.receiver)).toHaveLength(2);
  });
});
