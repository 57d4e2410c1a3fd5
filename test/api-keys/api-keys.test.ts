import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { apiKeys, auditEvents } from "../../src/db/schema/index.ts";
import { memberOf } from "../harness/accounts.ts";
import { createAgent } from "../harness/agents.ts";
import type { TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true, orgName: "Keys", funded: false })
  .extend("other", { scope: "file" }, ({ app }) => app.createOrganization("Elsewhere"))
  .extend("owner", { scope: "file" }, ({ app, org }) => memberOf(app, org, "owner"));

type Headers = Record<string, string>;

const createKey = (app: TestApp, headers: Headers, payload: Record<string, unknown>) =>
  app.api.inject({ method: "POST", url: "/api/api-keys", headers, payload });
const listKeys = (app: TestApp, headers: Headers) =>
  app.api.inject({ method: "GET", url: "/api/api-keys", headers });
const revokeKey = (app: TestApp, headers: Headers, id: string) =>
  app.api.inject({ method: "DELETE", url: `/api/api-keys/${id}`, headers });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const me = (app: TestApp, key: string) =>
  app.api.inject({ method: "GET", url: "/api/me", headers: bearer(key) }).then((r) => r.statusCode);

describe("making keys", () => {
  test("shows the key once, then lists it without the key, and audits both changes", async ({
    app,
    org,
    owner,
    agent,
  }) => {
    const created = await createKey(app, owner.headers, {
      name: "Reporting",
      scopes: ["usage:read", "agents:read"],
      agentIds: [agent.id],
      rateLimitPerMinute: 30,
      monthlyCreditBudget: 12.5,
      expiresAt: "2099-01-01T00:00:00Z",
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      name: "Reporting",
      scopes: ["usage:read", "agents:read"],
      agentIds: [agent.id],
      rateLimitPerMinute: 30,
      monthlyCreditBudget: 12.5,
      expiresAt: "2099-01-01T00:00:00.000Z",
    });
    expect(body.key).toMatch(/^adk_/);
    expect(body.key.startsWith(body.prefix)).toBe(true);
    expect(await me(app, body.key)).toBe(200);

    const [stored] = await app.database.db.select().from(apiKeys).where(eq(apiKeys.id, body.id));
    expect(stored).toMatchObject({ userId: owner.userId, monthlyBudgetMicro: 12_500_000 });

    // The use is recorded after the response, in the background.
    const listing = async () =>
      (await listKeys(app, owner.headers)).json() as Array<Record<string, unknown>>;
    await expect
      .poll(async () => (await listing()).find((key) => key.id === body.id))
      .toMatchObject({ name: "Reporting", prefix: body.prefix, lastUsedAt: expect.any(String) });
    const listed = await listing();
    expect(JSON.stringify(listed)).not.toContain(body.key);
    expect(JSON.stringify(listed)).not.toContain(stored!.keyHash);
    // The organization's first key (made with it) is listed too, with every scope.
    expect(listed.find((key) => key.id === org.apiKeyId)).toMatchObject({
      scopes: null,
      agentIds: null,
    });

    expect((await revokeKey(app, owner.headers, body.id)).statusCode).toBe(204);
    expect(await me(app, body.key)).toBe(401);
    const after = (await listKeys(app, owner.headers)).json() as Array<{ id: string }>;
    expect(after.map((key) => key.id)).not.toContain(body.id);
    expect((await revokeKey(app, owner.headers, body.id)).statusCode).toBe(404);

    const audited = await app.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, body.id));
    expect(audited.map((event) => [event.action, event.actorType, event.actorId]).sort()).toEqual([
      ["key.created", "user", owner.userId],
      ["key.revoked", "user", owner.userId],
    ]);
    expect(JSON.stringify(audited)).not.toContain(body.key);
  });

  test("lets a full-access key make keys, owned by that key's user and audited as the key", async ({
    app,
    org,
  }) => {
    const created = await createKey(app, org.auth, { name: "Made by a key" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      scopes: null,
      agentIds: null,
      monthlyCreditBudget: null,
    });
    const [stored] = await app.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, created.json().id));
    expect(stored!.userId).toBe(org.userId);
    const [event] = await app.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, created.json().id));
    expect(event).toMatchObject({ action: "key.created", actorType: "key", actorId: org.apiKeyId });
  });

  test("refuses an expired key at once", async ({ app, owner }) => {
    const created = await createKey(app, owner.headers, {
      name: "Short-lived",
      expiresAt: new Date(Date.now() + 1_500).toISOString(),
    });
    const key = created.json().key as string;
    expect(await me(app, key)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await me(app, key)).toBe(401);
  });
});

describe("bad input", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["no name", {}, "name"],
    ["an unknown scope", { name: "k", scopes: ["everything"] }, "scopes"],
    ["a limit of 0", { name: "k", rateLimitPerMinute: 0 }, "rateLimitPerMinute"],
    ["a limit over 100000", { name: "k", rateLimitPerMinute: 100_001 }, "rateLimitPerMinute"],
    ["a negative budget", { name: "k", monthlyCreditBudget: -1 }, "monthlyCreditBudget"],
    ["a past expiry", { name: "k", expiresAt: "2020-01-01T00:00:00Z" }, "expiresAt"],
    ["an expiry without offset", { name: "k", expiresAt: "2099-01-01" }, "expiresAt"],
  ];
  test.for(cases)("refuses %s with 400", async ([, payload, field], { app, owner }) => {
    const response = await createKey(app, owner.headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().type).toBe("INVALID_REQUEST");
    expect(JSON.stringify(response.json().details)).toContain(field);
  });

  test("names an agent that is not the organization's", async ({ app, other, owner, agent }) => {
    const theirs = (await createAgent(app, other)).id;
    const response = await createKey(app, owner.headers, {
      name: "k",
      agentIds: [agent.id, theirs],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain(theirs);
  });
});

describe("who may manage keys", () => {
  test("refuses members, viewers and scoped keys with 403", async ({ app, org, owner }) => {
    const scoped = (await createKey(app, owner.headers, { name: "s", scopes: ["query"] })).json()
      .key;
    for (const headers of [
      (await memberOf(app, org, "member")).headers,
      (await memberOf(app, org, "viewer")).headers,
      bearer(scoped),
    ]) {
      expect((await createKey(app, headers, { name: "x" })).statusCode).toBe(403);
      expect((await listKeys(app, headers)).statusCode).toBe(403);
      expect((await revokeKey(app, headers, org.apiKeyId)).statusCode).toBe(403);
    }
    expect(await me(app, org.apiKey)).toBe(200);
  });

  test("lets an admin manage keys but not another organization's", async ({ app, org, other }) => {
    const admin = await memberOf(app, org, "admin");
    expect((await createKey(app, admin.headers, { name: "by admin" })).statusCode).toBe(201);
    const listed = (await listKeys(app, admin.headers)).json() as Array<{ id: string }>;
    expect(listed.map((key) => key.id)).not.toContain(other.apiKeyId);
    expect((await revokeKey(app, admin.headers, other.apiKeyId)).statusCode).toBe(404);
    expect(await me(app, other.apiKey)).toBe(200);
  });
});
