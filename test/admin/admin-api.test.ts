import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { apiKeys, creditBuckets, organizations } from "../../src/db/schema/index.ts";
import { sha256Hex } from "../../src/lib/secrets.ts";
import { instanceAdminOf, memberOf } from "../harness/accounts.ts";
import { ADMIN_TOKEN, startTestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true });

describe("admin API", () => {
  test("creates an organization with owner and a key shown once, stored only hashed", async ({
    app,
  }) => {
    const response = await app.admin.admin.createOrganization({
      name: "Globex",
      ownerEmail: "Owner@Globex.example",
      plan: "pro",
    });
    expect(response.status).toBe(201);
    const body = response.body;
    expect(body).toMatchObject({
      organization: { id: expect.any(String), name: "Globex" },
      user: { id: expect.any(String), email: "owner@globex.example" },
      apiKey: expect.stringMatching(/^adk_[A-Za-z0-9_-]{43}$/),
    });
    const [stored] = await app.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.organizationId, body.organization.id));
    expect(stored?.keyHash).toBe(sha256Hex(body.apiKey));
    expect(JSON.stringify(stored)).not.toContain(body.apiKey);
    const [organization] = await app.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, body.organization.id));
    expect(organization).toMatchObject({ plan: "pro", billingModel: "credits" });
  });

  test("issues further keys that authenticate as the same organization", async ({ app }) => {
    const org = await app.createOrganization("Initech");
    const issued = await app.admin.admin.issueApiKey(org.id);
    expect(issued.status).toBe(201);
    const { apiKey } = issued.body;
    expect(apiKey).not.toBe(org.apiKey);
    const me = await app.client({ authorization: `Bearer ${apiKey}` }).account.me();
    expect(me.status).toBe(200);
    expect(me.body.organization).toEqual({ id: org.id, name: "Initech" });
  });

  test("grants credit buckets in micro-credits", async ({ app }) => {
    const org = await app.createOrganization("Hooli");
    const response = await app.admin.admin.grantCredits(org.id, {
      amount: 12.3456789,
      expiresAt: "2030-01-01T00:00:00Z",
    });
    expect(response.status).toBe(201);
    expect(response.body.creditBucket).toMatchObject({
      amount: 12.345679,
      remaining: 12.345679,
      expiresAt: "2030-01-01T00:00:00.000Z",
    });
    const [bucket] = await app.database.db
      .select()
      .from(creditBuckets)
      .where(eq(creditBuckets.organizationId, org.id));
    expect(bucket?.remainingMicro).toBe(12_345_679);
  });

  test("updates billing settings", async ({ app }) => {
    const org = await app.createOrganization("Umbrella");
    const response = await app.admin.admin.updateBilling(org.id, {
      billingModel: "legacy",
      subscriptionStatus: "past_due",
      queryLimit: 100,
    });
    expect(response.status).toBe(200);
    expect(response.body.organization).toMatchObject({
      id: org.id,
      billingModel: "legacy",
      subscriptionStatus: "past_due",
      queryLimit: 100,
      plan: "free",
    });
  });

  test.for([
    ["POST", "/api/admin/organizations", {}],
    ["POST", "/api/admin/organizations", { name: "" }],
    ["POST", "/api/admin/organizations", { name: "X", billingModel: "barter" }],
    ["POST", "/api/admin/organizations", { name: "X", ownerEmail: "nope" }],
  ] as const)("%s %s with %j → 400 INVALID_REQUEST", async ([method, url, payload], { app }) => {
    const response = await app.admin.request({ method, url, payload });
    expect(response.status).toBe(400);
    expect(response.error).toMatchObject({
      type: "INVALID_REQUEST",
      error: expect.any(String),
      requestId: expect.any(String),
      details: expect.any(Array),
    });
  });

  test("rejects bad credit and billing bodies and unknown organizations", async ({ app }) => {
    const org = await app.createOrganization("Soylent");
    const negative = await app.admin.admin.grantCredits(org.id, { amount: -5 });
    expect(negative.status).toBe(400);
    const badStatus = await app.admin.admin.updateBilling(org.id, { subscriptionStatus: "lapsed" });
    expect(badStatus.status).toBe(400);
    const missing = await app.admin.admin.grantCredits("does-not-exist", { amount: 5 });
    expect(missing.status).toBe(404);
    expect(missing.error.type).toBe("NOT_FOUND");
  });

  test.for([[undefined], ["Bearer wrong-token"], ["Basic dGVzdDp0ZXN0"]])(
    "refuses authorization %j with 401",
    async ([authorization], { app }) => {
      const response = await app.admin
        .as(authorization ? { authorization } : {})
        .admin.createOrganization({ name: "Nope" });
      expect(response.status).toBe(401);
      expect(response.error.type).toBe("UNAUTHORIZED");
    },
  );

  test("refuses an organization's API key on the admin API", async ({ app }) => {
    const org = await app.createOrganization("Tyrell");
    const response = await app.client(org.auth).admin.createOrganization({ name: "Escalation" });
    expect(response.status).toBe(401);
  });

  test("takes no bearer token without ADMIN_TOKEN: only instance administrators' sessions", async ({
    app,
  }) => {
    const closed = await startTestApp({ env: { ADMIN_TOKEN: "" }, database: app.database });
    try {
      for (const authorization of [`Bearer ${ADMIN_TOKEN}`, "Bearer ", undefined]) {
        const response = await closed.admin
          .as(authorization ? { authorization } : {})
          .admin.createOrganization({ name: "X" });
        expect(response.status, authorization).toBe(401);
        expect(response.error.type).toBe("UNAUTHORIZED");
      }
      // The organization is made on the app with the token; both share the database.
      const org = await app.createOrganization("Without a token");
      const administrator = await instanceAdminOf(closed, org);
      const created = await closed.api.inject({
        method: "POST",
        url: "/api/admin/organizations",
        headers: administrator.headers,
        payload: { name: "Made by a session" },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().organization.name).toBe("Made by a session");
      const owner = await memberOf(closed, org, "owner");
      const refused = await closed.api.inject({
        method: "POST",
        url: "/api/admin/organizations",
        headers: owner.headers,
        payload: { name: "Not an administrator" },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().type).toBe("FORBIDDEN");
    } finally {
      await closed.close();
    }
  });
});
