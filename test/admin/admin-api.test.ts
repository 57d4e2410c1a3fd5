import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, creditBuckets, organizations } from "../../src/db/schema/index.ts";
import { sha256Hex } from "../../src/lib/secrets.ts";
import { ADMIN_TOKEN, startTestApp, type TestApp } from "../harness/app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe("admin API", () => {
  it("creates an organization with owner and a key shown once, stored only hashed", async () => {
    const response = await app.api.inject({
      method: "POST",
      url: "/api/admin/organizations",
      headers: admin,
      payload: { name: "Globex", ownerEmail: "Owner@Globex.example", plan: "pro" },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
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

  it("issues further keys that authenticate as the same organization", async () => {
    const org = await app.createOrganization("Initech");
    const issued = await app.api.inject({
      method: "POST",
      url: `/api/admin/organizations/${org.id}/api-keys`,
      headers: admin,
    });
    expect(issued.statusCode).toBe(201);
    const { apiKey } = issued.json();
    expect(apiKey).not.toBe(org.apiKey);
    const me = await app.api.inject({
      method: "GET",
      url: "/api/me",
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().organization).toEqual({ id: org.id, name: "Initech" });
  });

  it("grants credit buckets in micro-credits", async () => {
    const org = await app.createOrganization("Hooli");
    const response = await app.api.inject({
      method: "POST",
      url: `/api/admin/organizations/${org.id}/credits`,
      headers: admin,
      payload: { amount: 12.3456789, expiresAt: "2030-01-01T00:00:00Z" },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().creditBucket).toMatchObject({
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

  it("updates billing settings", async () => {
    const org = await app.createOrganization("Umbrella");
    const response = await app.api.inject({
      method: "PATCH",
      url: `/api/admin/organizations/${org.id}/billing`,
      headers: admin,
      payload: { billingModel: "legacy", subscriptionStatus: "past_due", queryLimit: 100 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().organization).toMatchObject({
      id: org.id,
      billingModel: "legacy",
      subscriptionStatus: "past_due",
      queryLimit: 100,
      plan: "free",
    });
  });

  it.each([
    ["POST", "/api/admin/organizations", {}],
    ["POST", "/api/admin/organizations", { name: "" }],
    ["POST", "/api/admin/organizations", { name: "X", billingModel: "barter" }],
    ["POST", "/api/admin/organizations", { name: "X", ownerEmail: "nope" }],
  ] as const)("%s %s with %j → 400 INVALID_REQUEST", async (method, url, payload) => {
    const response = await app.api.inject({ method, url, headers: admin, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      type: "INVALID_REQUEST",
      error: expect.any(String),
      requestId: expect.any(String),
      details: expect.any(Array),
    });
  });

  it("rejects bad credit and billing bodies and unknown organizations", async () => {
    const org = await app.createOrganization("Soylent");
    const negative = await app.api.inject({
      method: "POST",
      url: `/api/admin/organizations/${org.id}/credits`,
      headers: admin,
      payload: { amount: -5 },
    });
    expect(negative.statusCode).toBe(400);
    const badStatus = await app.api.inject({
      method: "PATCH",
      url: `/api/admin/organizations/${org.id}/billing`,
      headers: admin,
      payload: { subscriptionStatus: "lapsed" },
    });
    expect(badStatus.statusCode).toBe(400);
    const missing = await app.api.inject({
      method: "POST",
      url: "/api/admin/organizations/does-not-exist/credits",
      headers: admin,
      payload: { amount: 5 },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().type).toBe("NOT_FOUND");
  });

  it.each([[undefined], ["Bearer wrong-token"], ["Basic dGVzdDp0ZXN0"]])(
    "refuses authorization %j with 401",
    async (authorization) => {
      const response = await app.api.inject({
        method: "POST",
        url: "/api/admin/organizations",
        headers: authorization ? { authorization } : {},
        payload: { name: "Nope" },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().type).toBe("UNAUTHORIZED");
    },
  );

  it("refuses an organization's API key on the admin API", async () => {
    const org = await app.createOrganization("Tyrell");
    const response = await app.api.inject({
      method: "POST",
      url: "/api/admin/organizations",
      headers: org.auth,
      payload: { name: "Escalation" },
    });
    expect(response.statusCode).toBe(401);
  });

  it("does not exist at all without ADMIN_TOKEN", async () => {
    const closed = await startTestApp({ env: { ADMIN_TOKEN: "" }, database: app.database });
    try {
      const response = await closed.api.inject({
        method: "POST",
        url: "/api/admin/organizations",
        headers: admin,
        payload: { name: "X" },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().type).toBe("NOT_FOUND");
    } finally {
      await closed.close();
    }
  });
});
