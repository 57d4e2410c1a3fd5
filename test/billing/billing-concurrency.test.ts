import { describe, expect } from "vitest";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { balanceOf, bucketsOf, grantCredits, MINI } from "./billing-helpers.ts";

const test = appTest({ offline: true }).extend("baseUrl", { scope: "file" }, ({ app }) =>
  app.listen("api"),
);

// 10M input tokens of azure gpt-4o-mini = 1.5 credits per charge.
const CHARGE = { ...MINI, inputTokens: 10_000_000 };

type Answer = {
  credits: { charged: number; requested: number };
  organizationId?: string;
  type?: string;
};

async function post(
  baseUrl: string,
  org: TestOrganization,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${baseUrl}/api/usage/increment-agent-queries`, {
    method: "POST",
    headers: { ...org.auth, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

async function eventCount(app: TestApp, org: TestOrganization): Promise<number> {
  const response = await app.client(org.auth).consumptionEvents.list({ limit: 1 });
  return response.body.pagination.total;
}

describe("50 parallel charges against a balance that covers 20", () => {
  for (const [label, granted, partials] of [
    ["exactly 20", 30, 0],
    ["20 and a half", 30.75, 1],
  ] as const) {
    test(`${label}: 20 full charges, ${partials} partial, the rest 402, exactly 0 left`, async ({
      app,
      baseUrl,
    }) => {
      const org = await app.createOrganization(`Race ${label}`);
      await grantCredits(app, org.id, granted * 0.6);
      await grantCredits(app, org.id, granted * 0.4);
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => post(baseUrl, org, CHARGE)),
      );

      const succeeded = responses.filter((response) => response.status === 200);
      const full = succeeded.filter((response) => response.body.credits.charged === 1.5);
      const partial = succeeded.filter((response) => response.body.credits.charged < 1.5);
      expect(full).toHaveLength(20);
      expect(partial).toHaveLength(partials);
      for (const response of responses.filter((candidate) => candidate.status !== 200)) {
        expect(response.status).toBe(402);
        expect(response.body.type).toBe("USAGE_LIMIT");
      }
      const charged = succeeded.reduce((sum, response) => sum + response.body.credits.charged, 0);
      expect(charged).toBeCloseTo(granted, 6);

      const balance = await balanceOf(app, org);
      expect(balance.credits).toEqual({ total: granted, used: granted, remaining: 0 });
      expect(balance.blockReason).toBe("no_credits");
      for (const bucket of await bucketsOf(app, org.id)) expect(bucket.remainingMicro).toBe(0);
      expect(await eventCount(app, org)).toBe(succeeded.length);
    });
  }

  test("the Billing port records every charge, capped so the balance never goes negative", async ({
    app,
  }) => {
    const org = await app.createOrganization("Port race");
    await grantCredits(app, org.id, 30);
    const { billing } = app.runtime.services;
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        billing.charge({
          organizationId: org.id,
          feature: "chat",
          provider: "openai",
          modelName: "gpt-4o-mini",
          inputTokens: 10_000_000,
          outputTokens: 0,
        }),
      ),
    );
    expect(results.filter((result) => result.creditsCharged === 1.5)).toHaveLength(20);
    expect(results.filter((result) => result.creditsCharged === 0)).toHaveLength(30);
    expect(results.every((result) => result.creditsRequested === 1.5)).toBe(true);
    expect((await balanceOf(app, org)).credits?.remaining).toBe(0);
    expect(await eventCount(app, org)).toBe(50);
  });
});

describe("Idempotency-Key", () => {
  test("the same key sent twice concurrently charges once and both answers are equal", async ({
    app,
    baseUrl,
  }) => {
    const org = await app.createOrganization("Idempotent");
    await grantCredits(app, org.id, 100);
    const headers = { "idempotency-key": "order-42" };
    const body = { ...CHARGE, metadata: { order: 42, tags: ["a", "b"] } };
    const [first, second] = await Promise.all([
      post(baseUrl, org, body, headers),
      post(baseUrl, org, body, headers),
    ]);
    expect(first.status).toBe(200);
    expect(second).toEqual(first);
    expect(await eventCount(app, org)).toBe(1);
    expect((await balanceOf(app, org)).credits?.remaining).toBe(98.5);
  });

  test("many concurrent retries of one key still charge once", async ({ app, baseUrl }) => {
    const org = await app.createOrganization("Retry storm");
    await grantCredits(app, org.id, 100);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => post(baseUrl, org, CHARGE, { "idempotency-key": "storm" })),
    );
    expect(new Set(responses.map((response) => JSON.stringify(response))).size).toBe(1);
    expect(await eventCount(app, org)).toBe(1);
  });

  test("a later retry gets the first answer, even after the balance changed", async ({
    app,
    baseUrl,
  }) => {
    const org = await app.createOrganization("Replay");
    await grantCredits(app, org.id, 2);
    const first = await post(baseUrl, org, CHARGE, { "idempotency-key": "k1" });
    await post(baseUrl, org, CHARGE);
    const retry = await post(baseUrl, org, { ...CHARGE }, { "idempotency-key": "k1" });
    expect(retry).toEqual(first);
    expect(retry.body.credits).toEqual({ charged: 1.5, requested: 1.5 });
    expect(await eventCount(app, org)).toBe(2);
  });

  test("same body with keys in another order is the same request", async ({ app, baseUrl }) => {
    const org = await app.createOrganization("Key order");
    await grantCredits(app, org.id, 10);
    const first = await post(
      baseUrl,
      org,
      { provider: "azure", modelName: "gpt-4o-mini", metadata: { a: 1, b: 2 } },
      { "idempotency-key": "ordered" },
    );
    const second = await post(
      baseUrl,
      org,
      { metadata: { b: 2, a: 1 }, modelName: "gpt-4o-mini", provider: "azure" },
      { "idempotency-key": "ordered" },
    );
    expect(second).toEqual(first);
  });

  test("409 when the key is reused with a different body; keys are per organization", async ({
    app,
    baseUrl,
  }) => {
    const org = await app.createOrganization("Conflict");
    const other = await app.createOrganization("Conflict other");
    await grantCredits(app, org.id, 10);
    await grantCredits(app, other.id, 10);
    await post(baseUrl, org, CHARGE, { "idempotency-key": "shared" });
    const conflict = await post(
      baseUrl,
      org,
      { ...CHARGE, inputTokens: 1 },
      { "idempotency-key": "shared" },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.type).toBe("CONFLICT");
    const elsewhere = await post(baseUrl, other, CHARGE, { "idempotency-key": "shared" });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.organizationId).toBe(other.id);
    expect(await eventCount(app, org)).toBe(1);
    expect(await eventCount(app, other)).toBe(1);
  });

  test("a refused (402) request is not remembered: the retry is evaluated again", async ({
    app,
    baseUrl,
  }) => {
    const org = await app.createOrganization("Refused first");
    await grantCredits(app, org.id, 5, new Date(Date.now() - 60_000).toISOString());
    expect((await post(baseUrl, org, CHARGE, { "idempotency-key": "later" })).status).toBe(402);
    await grantCredits(app, org.id, 5);
    const retry = await post(baseUrl, org, CHARGE, { "idempotency-key": "later" });
    expect(retry.status).toBe(200);
    expect(retry.body.credits.charged).toBe(1.5);
  });
});
