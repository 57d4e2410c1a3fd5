import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiKeys, auditEvents } from "../../src/db/schema/index.ts";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import { createAgent } from "../harness/agents.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";

let app: TestApp;
let org: TestOrganization;
let other: TestOrganization;
let owner: SignedIn;
let agentId: string;

beforeAll(async () => {
  app = await startTestApp();
  org = await app.createOrganization("Keys");
  other = await app.createOrganization("Elsewhere");
  owner = await memberOf(app, org, "owner");
  agentId = (await createAgent(app, org)).id;
});
afterAll(() => app.close());

type Headers = Record<string, string>;

const createKey = (headers: Headers, payload: Record<string, unknown>) =>
  app.api.inject({ method: "POST", url: "/api/api-keys", headers, payload });
const listKeys = (headers: Headers) =>
  app.api.inject({ method: "GET", url: "/api/api-keys", headers });
const revokeKey = (headers: Headers, id: string) =>
  app.api.inject({ method: "DELETE", url: `/api/api-keys/${id}`, headers });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const me = (key: string) =>
  app.api.inject({ method: "GET", url: "/api/me", headers: bearer(key) }).then((r) => r.statusCode);

describe("making keys", () => {
  test("shows the key once, then lists it without the key, and audits both changes", async () => {
    const created = await createKey(owner.headers, {
      name: "Reporting",
      scopes: ["usage:read", "agents:read"],
      agentIds: [agentId],
      rateLimitPerMinute: 30,
      monthlyCreditBudget: 12.5,
      expiresAt: "2099-01-01T00:00:00Z",
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      name: "Reporting",
      scopes: ["usage:read", "agents:read"],
      agentIds: [agentId],
      rateLimitPerMinute: 30,
      monthlyCreditBudget: 12.5,
      expiresAt: "2099-01-01T00:00:00.000Z",
    });
    expect(body.key).toMatch(/^adk_/);
    expect(body.key.startsWith(body.prefix)).toBe(true);
    expect(await me(body.key)).toBe(200);

    const [stored] = await app.database.db.select().from(apiKeys).where(eq(apiKeys.id, body.id));
    expect(stored).toMatchObject({ userId: owner.userId, monthlyBudgetMicro: 12_500_000 });

    const listed = (await listKeys(owner.headers)).json() as Array<Record<string, unknown>>;
    const shown = listed.find((key) => key.id === body.id);
    expect(shown).toMatchObject({
      name: "Reporting",
      prefix: body.prefix,
      lastUsedAt: expect.any(String),
    });
    expect(JSON.stringify(listed)).not.toContain(body.key);
    expect(JSON.stringify(listed)).not.toContain(stored!.keyHash);
    // The organization's first key (made with it) is listed too, with every scope.
    expect(listed.find((key) => key.id === org.apiKeyId)).toMatchObject({
      scopes: null,
      agentIds: null,
    });

    expect((await revokeKey(owner.headers, body.id)).statusCode).toBe(204);
    expect(await me(body.key)).toBe(401);
    const after = (await listKeys(owner.headers)).json() as Array<{ id: string }>;
    expect(after.map((key) => key.id)).not.toContain(body.id);
    expect((await revokeKey(owner.headers, body.id)).statusCode).toBe(404);

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

  test("lets a full-access key make keys, owned by that key's user and audited as the key", async () => {
    const created = await createKey(org.auth, { name: "Made by a key" });
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

  test("refuses an expired key at once", async () => {
    const created = await createKey(owner.headers, {
      name: "Short-lived",
      expiresAt: new Date(Date.now() + 1_500).toISOString(),
    });
    const key = created.json().key as string;
    expect(await me(key)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await me(key)).toBe(401);
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
  test.each(cases)("refuses %s with 400", async (_name, payload, field) => {
    const response = await createKey(owner.headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().type).toBe("INVALID_REQUEST");
    expect(JSON.stringify(response.json().details)).toContain(field);
  });

  test("names an agent that is not the organization's", async () => {
    const theirs = (await createAgent(app, other)).id;
    const response = await createKey(owner.headers, { name: "k", agentIds: [agentId, theirs] });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain(theirs);
  });
});

describe("who may manage keys", () => {
  test("refuses members, viewers and scoped keys with 403", async () => {
    const scoped = (await createKey(owner.headers, { name: "s", scopes: ["query"] })).json().key;
    for (const headers of [
      (await memberOf(app, org, "member")).headers,
      (await memberOf(app, org, "viewer")).headers,
      bearer(scoped),
    ]) {
      expect((await createKey(headers, { name: "x" })).statusCode).toBe(403);
      expect((await listKeys(headers)).statusCode).toBe(403);
      expect((await revokeKey(headers, org.apiKeyId)).statusCode).toBe(403);
    }
    expect(await me(org.apiKey)).toBe(200);
  });

  test("lets an admin manage keys but not another organization's", async () => {
    const admin = await memberOf(app, org, "admin");
    expect((await createKey(admin.headers, { name: "by admin" })).statusCode).toBe(201);
    const listed = (await listKeys(admin.headers)).json() as Array<{ id: string }>;
    expect(listed.map((key) => key.id)).not.toContain(other.apiKeyId);
    expect((await revokeKey(admin.headers, other.apiKeyId)).statusCode).toBe(404);
    expect(await me(other.apiKey)).toBe(200);
  });
});
