import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { appTest } from "../harness/fixtures.ts";
import {
  balanceOf,
  bucketsOf,
  grantCredits,
  increment,
  MINI,
  setBilling,
} from "./billing-helpers.ts";

const test = appTest({ offline: true });

// 10M input tokens of azure gpt-4o-mini at 0.15 credits per million = 1.5 credits.
const ONE_AND_A_HALF = { ...MINI, inputTokens: 10_000_000 };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe("GET /api/credits/balance", () => {
  test("a new organization is on the free plan with zero credits and can run", async ({ app }) => {
    const org = await app.createOrganization("Fresh");
    expect(await balanceOf(app, org)).toEqual({
      billingModel: "credits",
      credits: { total: 0, used: 0, remaining: 0 },
      canRun: true,
      blockReason: null,
      freePlan: { included: 5, used: 0, remaining: 5 },
    });
  });

  test("reports total, used and remaining of live buckets, rounded to 6 decimals", async ({
    app,
  }) => {
    const org = await app.createOrganization("Buckets");
    await grantCredits(app, org.id, 10);
    await grantCredits(app, org.id, 0.1234567);
    await grantCredits(app, org.id, 50, inDays(-1));
    const charged = await increment(app, org, { ...MINI, inputTokens: 1_000_001 });
    expect(charged.body.credits).toEqual({ charged: 0.15, requested: 0.15 });
    expect(await balanceOf(app, org)).toEqual({
      billingModel: "credits",
      credits: { total: 10.123457, used: 0.15, remaining: 9.973457 },
      canRun: true,
      blockReason: null,
      freePlan: null,
    });
  });
});

describe("credit rules", () => {
  test("spends the oldest-expiring bucket first, never-expiring last, ignoring expired ones", async ({
    app,
  }) => {
    const org = await app.createOrganization("Order");
    const never = await grantCredits(app, org.id, 1);
    const later = await grantCredits(app, org.id, 1, inDays(2));
    const sooner = await grantCredits(app, org.id, 1, inDays(1));
    const expired = await grantCredits(app, org.id, 1, inDays(-1));
    const response = await increment(app, org, ONE_AND_A_HALF);
    expect(response.body.credits).toEqual({ charged: 1.5, requested: 1.5 });
    const remaining = Object.fromEntries(
      (await bucketsOf(app, org.id)).map((bucket) => [bucket.id, bucket.remainingMicro]),
    );
    expect(remaining).toEqual({
      [sooner]: 0,
      [later]: 500_000,
      [never]: 1_000_000,
      [expired]: 1_000_000,
    });
  });

  test("allows a message while any fraction remains and charges only the remainder", async ({
    app,
  }) => {
    const org = await app.createOrganization("Fraction");
    await grantCredits(app, org.id, 2);
    const first = await increment(app, org, ONE_AND_A_HALF);
    expect(first.body.credits).toEqual({ charged: 1.5, requested: 1.5 });
    const second = await increment(app, org, ONE_AND_A_HALF);
    expect(second.status).toBe(200);
    expect(second.body.credits).toEqual({ charged: 0.5, requested: 1.5 });
    const third = await increment(app, org, ONE_AND_A_HALF);
    expect(third.status).toBe(402);
    expect(third.error).toMatchObject({ type: "USAGE_LIMIT" });
    expect(await balanceOf(app, org)).toEqual({
      billingModel: "credits",
      credits: { total: 2, used: 2, remaining: 0 },
      canRun: false,
      blockReason: "no_credits",
      freePlan: null,
    });
    expect((await bucketsOf(app, org.id))[0]!.remainingMicro).toBe(0);
  });

  test("only expired buckets left means no_credits, not the free plan", async ({ app }) => {
    const org = await app.createOrganization("Expired");
    await grantCredits(app, org.id, 5, inDays(-2));
    const balance = await balanceOf(app, org);
    expect(balance).toMatchObject({ canRun: false, blockReason: "no_credits" });
    expect(balance.credits).toEqual({ total: 0, used: 0, remaining: 0 });
    expect((await increment(app, org, MINI)).status).toBe(402);
  });
});

describe("block reasons, in the spec's order", () => {
  test("free plan: 5 agent messages, then free_plan_limit; other features do not count", async ({
    app,
  }) => {
    const org = await app.createOrganization("Free");
    for (let index = 0; index < 3; index += 1) {
      expect((await increment(app, org, { ...MINI, feature: "transcription" })).status).toBe(200);
    }
    for (let message = 1; message <= 5; message += 1) {
      const response = await increment(app, org, { ...MINI, inputTokens: 100 });
      expect(response.status, `message ${message}`).toBe(200);
      if (message === 2) {
        expect((await balanceOf(app, org)).freePlan).toEqual({
          included: 5,
          used: 2,
          remaining: 3,
        });
      }
    }
    const sixth = await increment(app, org, { ...MINI, inputTokens: 100 });
    expect(sixth.status).toBe(402);
    expect(sixth.error).toMatchObject({
      type: "USAGE_LIMIT",
      details: [{ path: "blockReason", message: "free_plan_limit" }],
    });
    expect(await balanceOf(app, org)).toMatchObject({
      canRun: false,
      blockReason: "free_plan_limit",
      freePlan: { included: 5, used: 5, remaining: 0 },
    });
    // Any metered action is refused once canRun is false.
    expect((await increment(app, org, { ...MINI, feature: "transcription" })).status).toBe(402);

    await grantCredits(app, org.id, 1);
    expect(await balanceOf(app, org)).toMatchObject({
      canRun: true,
      blockReason: null,
      freePlan: null,
    });
  });

  test("an active subscription without buckets lifts the free plan", async ({ app }) => {
    const org = await app.createOrganization("Subscribed");
    await setBilling(app, org.id, { subscriptionStatus: "active" });
    for (let message = 1; message <= 7; message += 1) {
      expect((await increment(app, org, MINI)).status).toBe(200);
    }
    expect(await balanceOf(app, org)).toMatchObject({ canRun: true, blockReason: null });
  });

  test("payment_overdue comes before no_credits", async ({ app }) => {
    const org = await app.createOrganization("Overdue credits");
    await grantCredits(app, org.id, 1);
    await increment(app, org, ONE_AND_A_HALF);
    await setBilling(app, org.id, { subscriptionStatus: "past_due" });
    expect(await balanceOf(app, org)).toMatchObject({ blockReason: "payment_overdue" });
    await setBilling(app, org.id, { subscriptionStatus: "active" });
    expect(await balanceOf(app, org)).toMatchObject({ blockReason: "no_credits" });
  });

  test("payment_overdue blocks even with credits left", async ({ app }) => {
    const org = await app.createOrganization("Overdue rich");
    await grantCredits(app, org.id, 100);
    await setBilling(app, org.id, { subscriptionStatus: "past_due" });
    expect(await balanceOf(app, org)).toMatchObject({
      canRun: false,
      blockReason: "payment_overdue",
    });
    const refused = await increment(app, org, MINI);
    expect(refused.status).toBe(402);
    expect(refused.body.details[0].message).toBe("payment_overdue");
  });

  test("legacy: credits null, monthly query limit, payment_overdue before query_limit", async ({
    app,
  }) => {
    const org = await app.createOrganization("Legacy", { billingModel: "legacy" });
    await setBilling(app, org.id, { queryLimit: 2 });
    expect(await balanceOf(app, org)).toEqual({
      billingModel: "legacy",
      credits: null,
      canRun: true,
      blockReason: null,
      freePlan: null,
    });
    const first = await increment(app, org, ONE_AND_A_HALF);
    expect(first.body.credits).toEqual({ charged: 1.5, requested: 1.5 });
    expect((await increment(app, org, { ...MINI, feature: "chat" })).status).toBe(200);
    expect(await balanceOf(app, org)).toMatchObject({ canRun: false, blockReason: "query_limit" });
    expect((await increment(app, org, MINI)).status).toBe(402);

    await setBilling(app, org.id, { subscriptionStatus: "past_due" });
    expect(await balanceOf(app, org)).toMatchObject({ blockReason: "payment_overdue" });
    await setBilling(app, org.id, { subscriptionStatus: "active", queryLimit: 3 });
    expect(await balanceOf(app, org)).toMatchObject({ canRun: true, blockReason: null });
    await setBilling(app, org.id, { queryLimit: 0 });
    expect(await balanceOf(app, org)).toMatchObject({ blockReason: "query_limit" });
  });

  test("legacy without a query limit and without a subscription is on the free plan", async ({
    app,
  }) => {
    const org = await app.createOrganization("Legacy free", { billingModel: "legacy" });
    for (let message = 1; message <= 5; message += 1) await increment(app, org, MINI);
    expect(await balanceOf(app, org)).toMatchObject({
      credits: null,
      canRun: false,
      blockReason: "free_plan_limit",
    });
  });
});

describe("GET /api/credits/balance: the spec's quirks", () => {
  test("403 with a plain-text Forbidden body for a missing, malformed or invalid key", async ({
    app,
  }) => {
    for (const headers of [
      {},
      { authorization: "Basic abc" },
      { authorization: "Bearer adk_invalid" },
    ]) {
      const response = await app.client(headers).credits.balance();
      expect(response.status).toBe(403);
      expect(response.headers["content-type"]).toMatch(/^text\/plain/);
      expect(response.text).toBe("Forbidden");
    }
  });

  test("404 for every other method, with no CORS headers even for a browser preflight", async ({
    app,
  }) => {
    const org = await app.createOrganization("Methods");
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const) {
      const response = await app.client(org.auth).request({
        method,
        url: "/api/credits/balance",
        headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
      });
      expect(response.status, method).toBe(404);
      expect(response.headers["access-control-allow-origin"], method).toBeUndefined();
    }
    const get = await app.client(org.auth).request({
      method: "GET",
      url: "/api/credits/balance",
      headers: { origin: "https://evil.example" },
    });
    expect(get.status).toBe(200);
    expect(get.headers["access-control-allow-origin"]).toBeUndefined();
  });

  test("401 when the key's organization no longer exists", async ({ app }) => {
    const org = await app.createOrganization("Vanished");
    // Delete the organization row alone, leaving its key behind (foreign-key triggers off).
    await app.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`delete from organizations where id = ${org.id}`);
    });
    const response = await app.client(org.auth).credits.balance();
    expect(response.status).toBe(401);
    expect(response.error.type).toBe("UNAUTHORIZED");
  });
});
