import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

// Every answer costs, and holds, exactly one credit: 100 output tokens at 10,000 credits per
// million and no input price. The model takes 300 ms, so a burst is in flight all at once.
const MODELS = { gpt_4o_mini: { inputCreditsPerMillion: 0, outputCreditsPerMillion: 10_000 } };

const test = appTest({ orgName: "Budgets" })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("modelsFile", { scope: "file" }, ({}, { onCleanup }) => {
    const workDir = mkdtempSync(join(tmpdir(), "agentdesk-key-budget-"));
    onCleanup(() => rmSync(workDir, { recursive: true, force: true }));
    const modelsFile = join(workDir, "models.json");
    writeFileSync(modelsFile, JSON.stringify(MODELS));
    return modelsFile;
  })
  .override("env", { scope: "file" }, ({ modelsFile }) => ({
    MODELS_FILE: modelsFile,
    MODEL_MAX_OUTPUT_TOKENS: "100",
  }))
  .extend("second", { scope: "file" }, async ({ app, fake, env }, { onCleanup }) => {
    // A second API process on the same database: the budget holds across processes.
    const second = await startTestApp({
      database: app.database,
      env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.url, ...env },
    });
    onCleanup(() => second.close());
    return second;
  })
  .extend("owner", { scope: "file" }, ({ app, org }) => memberOf(app, org, "owner"));

test.beforeAll(({ fake }) => {
  fake.setDefaultChat({
    text: "One credit's worth of answer.",
    usage: { promptTokens: 50, completionTokens: 100 },
    delayMs: 300,
  });
});

async function keyWithBudget(
  { app, owner }: { app: TestApp; owner: SignedIn },
  monthlyCreditBudget: number,
): Promise<{ id: string; key: string }> {
  const created = await app.api.inject({
    method: "POST",
    url: "/api/api-keys",
    headers: owner.headers,
    payload: { name: `budget ${monthlyCreditBudget}`, monthlyCreditBudget },
  });
  expect(created.statusCode).toBe(201);
  return created.json();
}

const ask = (through: TestApp, agentId: string, headers: Record<string, string>) =>
  through.api.inject({
    method: "POST",
    url: `/api/agents/${agentId}/query`,
    headers,
    payload: { query: "What does this cost?" },
  });

async function spentWith(app: TestApp, apiKeyId: string) {
  const [row] = rowsOf<{ events: number; charged: string }>(
    await app.database.db.execute(sql`
      select count(*)::int as events, coalesce(sum(credits_charged_micro), 0)::text as charged
      from consumption_events where api_key_id = ${apiKeyId}`),
  );
  return { events: row!.events, charged: Number(row!.charged) / 1e6 };
}

async function heldBy(app: TestApp, apiKeyId: string): Promise<number> {
  const [row] = rowsOf<{ held: number }>(
    await app.database.db.execute(
      sql`select count(*)::int as held from credit_reservations where api_key_id = ${apiKeyId}`,
    ),
  );
  return row!.held;
}

/**
 * `count` questions at once, then one at a time until the budget refuses: a burst's holds
 * (each the most an answer can cost) may leave some of the budget for later, never more.
 */
async function spendAll(
  { app, second, agent }: { app: TestApp; second: TestApp; agent: { id: string } },
  key: string,
  count: number,
) {
  const headers = { authorization: `Bearer ${key}` };
  // Half the burst through each process.
  const burst = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      ask(index % 2 === 0 ? app : second, agent.id, headers),
    ),
  );
  const refusals = burst.filter((outcome) => outcome.statusCode !== 200);
  const burstAnswered = burst.length - refusals.length;
  let answered = burstAnswered;
  for (;;) {
    const next = await ask(app, agent.id, headers);
    if (next.statusCode !== 200) {
      refusals.push(next);
      break;
    }
    answered += 1;
  }
  return { burstAnswered, answered, refusals };
}

describe("a key's monthly credit budget", () => {
  test("pays for exactly its credits under 30 parallel questions from two processes", async ({
    app,
    second,
    owner,
    agent,
    fake,
  }) => {
    const { id, key } = await keyWithBudget({ app, owner }, 5);
    const spent = await spendAll({ app, second, agent }, key, 30);

    expect(spent.burstAnswered).toBeGreaterThanOrEqual(1);
    expect(spent.answered).toBe(5);
    for (const refused of spent.refusals) {
      expect(refused.statusCode, refused.body).toBe(402);
      expect(refused.json().type).toBe("USAGE_LIMIT");
      expect(refused.json().error).toContain("monthly credit budget of 5 credits");
    }
    expect(await spentWith(app, id)).toEqual({ events: 5, charged: 5 });
    expect(await heldBy(app, id)).toBe(0);
    // Refused before the model is asked.
    const calls = fake.requests.length;
    expect((await ask(app, agent.id, { authorization: `Bearer ${key}` })).statusCode).toBe(402);
    expect(fake.requests.length).toBe(calls);
  }, 60_000);

  test("caps the last answer at what is left, never spending past the budget", async ({
    app,
    second,
    owner,
    agent,
  }) => {
    const { id, key } = await keyWithBudget({ app, owner }, 2.5);
    const spent = await spendAll({ app, second, agent }, key, 10);
    expect(spent.answered).toBe(3);
    expect(await spentWith(app, id)).toEqual({ events: 3, charged: 2.5 });
  }, 60_000);

  test("leaves sessions and other keys of the organization alone", async ({
    app,
    org,
    owner,
    agent,
  }) => {
    const { key } = await keyWithBudget({ app, owner }, 0);
    const refused = await ask(app, agent.id, { authorization: `Bearer ${key}` });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toContain("monthly credit budget of 0 credits");
    const followUp = await app.api.inject({
      method: "POST",
      url: `/api/agents/${agent.id}/follow-up/query`,
      headers: { authorization: `Bearer ${key}` },
      payload: {
        messages: [{ from: "human", text: "Any news?" }],
        prompt: "Write a short follow-up.",
        skipFilter: true,
      },
    });
    expect(followUp.statusCode, followUp.body).toBe(402);
    expect(followUp.json().error).toContain("monthly credit budget of 0 credits");
    expect((await ask(app, agent.id, owner.headers)).statusCode).toBe(200);
    expect((await ask(app, agent.id, org.auth)).statusCode).toBe(200);
  }, 60_000);

  test("holds reported usage (increment-agent-queries) within the budget too", async ({
    app,
    org,
    owner,
  }) => {
    const report = (headers: Record<string, string>) =>
      app.api.inject({
        method: "POST",
        url: "/api/usage/increment-agent-queries",
        headers,
        payload: {
          provider: "azure",
          modelName: "gpt-4o-mini",
          inputTokens: 1_000,
          outputTokens: 500,
        },
      });
    // What one report costs, asked with the organization's own key (no budget).
    const price = (await report(org.auth)).json().credits.requested as number;
    expect(price).toBeGreaterThan(0);
    const { id, key } = await keyWithBudget({ app, owner }, price * 1.5);
    const keyed = { authorization: `Bearer ${key}` };
    expect((await report(keyed)).json().credits).toEqual({ charged: price, requested: price });
    // The last report is capped at what was left; the next is refused.
    expect((await report(keyed)).json().credits).toEqual({ charged: price / 2, requested: price });
    const refused = await report(keyed);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toContain(`monthly credit budget of ${price * 1.5} credits`);
    expect(await spentWith(app, id)).toEqual({ events: 2, charged: price * 1.5 });
  });
});
