import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { memberships, users } from "../../src/db/schema/index.ts";
import { hashPassword } from "../../src/domain/accounts/passwords.ts";
import { newId } from "../../src/lib/ids.ts";
import { memberOf, ownOrigin, sessionCookieOf, TEST_PASSWORD } from "../harness/accounts.ts";
import type { TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true, orgName: "Signed in", funded: false }).extend(
  "owner",
  { scope: "file" },
  ({ app, org }) => memberOf(app, org, "owner"),
);

const login = (
  app: TestApp,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) =>
  app.api.inject({ method: "POST", url: "/api/auth/login", payload: { email, password }, headers });

describe("a session", () => {
  test("logs in, calls the API with the cookie alone, logs out and is refused at once", async ({
    app,
    org,
    owner,
  }) => {
    const response = await login(app, owner.email.toUpperCase(), TEST_PASSWORD);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      user: { id: owner.userId, email: owner.email, name: "owner" },
      organizations: [{ id: org.id, name: "Signed in", role: "owner" }],
    });
    const setCookie = String(response.headers["set-cookie"]);
    expect(setCookie).toMatch(/^agentdesk_session=ads_[\w-]+;/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/);
    const cookie = sessionCookieOf(response);

    const agents = await app.api.inject({ url: "/api/agents", headers: { cookie } });
    expect(agents.statusCode, agents.body).toBe(200);
    const created = await app.api.inject({
      method: "POST",
      url: "/api/agents",
      headers: { cookie, origin: ownOrigin(app) },
      payload: { name: "Made with a session" },
    });
    expect(created.statusCode, created.body).toBe(201);

    const session = await app.api.inject({ url: "/api/auth/session", headers: { cookie } });
    expect(session.json()).toMatchObject({ activeOrganizationId: org.id });

    const logout = await app.api.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { cookie, origin: ownOrigin(app) },
    });
    expect(logout.statusCode).toBe(204);
    expect(String(logout.headers["set-cookie"])).toMatch(/agentdesk_session=;/);
    const after = await app.api.inject({ url: "/api/agents", headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(
      (await app.api.inject({ url: "/api/auth/session", headers: { cookie } })).statusCode,
    ).toBe(401);
  });

  test("answers a wrong password and an unknown e-mail alike", async ({ app, owner }) => {
    const wrong = await login(app, owner.email, "not the password at all");
    const unknown = await login(app, "nobody-here@example.com", "not the password at all");
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const { requestId: _a, ...wrongBody } = wrong.json();
    const { requestId: _b, ...unknownBody } = unknown.json();
    expect(wrongBody).toEqual(unknownBody);
    expect(wrong.headers["set-cookie"]).toBeUndefined();
  });

  test("refuses the 11th try within 15 minutes per e-mail, and per address, with Retry-After", async ({
    app,
    org,
    owner,
  }) => {
    const target = await memberOf(app, org, "member");
    const from = (address: string, email: string, password: string) =>
      app.api.inject({
        method: "POST",
        url: "/api/auth/login",
        remoteAddress: address,
        payload: { email, password },
      });
    // Per e-mail: ten wrong passwords, each from another address.
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await from(`198.51.100.${attempt + 1}`, target.email, `wrong ${attempt}`);
      expect(response.statusCode).toBe(401);
    }
    const blocked = await from("198.51.100.99", target.email, TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().type).toBe("RATE_LIMITED");
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    // Per address: ten unknown e-mails from one address block the next login from it.
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await from("203.0.113.9", `guess-${attempt}@example.com`, "guess guess");
      expect(response.statusCode).toBe(401);
    }
    expect((await from("203.0.113.9", owner.email, TEST_PASSWORD)).statusCode).toBe(429);
    expect((await from("203.0.113.10", owner.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  test("needs its own origin on requests that change something (CSRF)", async ({ app, org }) => {
    const member = await memberOf(app, org, "member");
    const attempt = (headers: Record<string, string>) =>
      app.api.inject({
        method: "POST",
        url: "/api/agents",
        headers: { cookie: member.headers.cookie, ...headers },
        payload: { name: "Cross-site" },
      });
    expect((await attempt({})).statusCode).toBe(403);
    expect((await attempt({ origin: "https://evil.example" })).statusCode).toBe(403);
    expect((await attempt({ referer: "https://evil.example/page" })).statusCode).toBe(403);
    expect((await attempt({ referer: `${ownOrigin(app)}/console/agents` })).statusCode).toBe(201);
    // The request's own host counts as our origin too (a proxy without PUBLIC_URL).
    expect(
      (await attempt({ origin: "http://agents.internal", host: "agents.internal" })).statusCode,
    ).toBe(201);
    // A read needs no origin, and a key is never asked for one.
    expect(
      (await app.api.inject({ url: "/api/agents", headers: { cookie: member.headers.cookie } }))
        .statusCode,
    ).toBe(200);
    const keyed = await app.api.inject({
      method: "POST",
      url: "/api/agents",
      headers: org.auth,
      payload: { name: "With a key" },
    });
    expect(keyed.statusCode).toBe(201);
  });

  test("is the spec's 'session has no organization' on the credits balance", async ({ app }) => {
    const email = `lonely-${newId().toLowerCase()}@example.com`;
    await app.database.db
      .insert(users)
      .values({ id: newId(), email, passwordHash: await hashPassword(TEST_PASSWORD) });
    const response = await login(app, email, TEST_PASSWORD);
    expect(response.json().organizations).toEqual([]);
    const balance = await app.api.inject({
      url: "/api/credits/balance",
      headers: { cookie: sessionCookieOf(response) },
    });
    expect(balance.statusCode).toBe(401);
    expect(balance.json().error).toMatch(/session has no organization/i);
  });

  test("acts in the organization X-Organization-Id names, and never in one it is not a member of", async ({
    app,
    org,
    owner,
  }) => {
    const other = await app.createOrganization("Not mine");
    const second = await app.createOrganization("Also mine");
    await app.database.db
      .insert(memberships)
      .values({ organizationId: second.id, userId: owner.userId, role: "viewer" });
    const headers = (await memberOf(app, org, "viewer")).headers;
    const mine = await app.api.inject({ url: "/api/me", headers: owner.headers });
    expect(mine.json().organization.id).toBe(org.id);
    const switched = await app.api.inject({
      url: "/api/me",
      headers: { ...owner.headers, "x-organization-id": second.id },
    });
    expect(switched.json().organization.id).toBe(second.id);
    // As a viewer there, the same user cannot write.
    const write = await app.api.inject({
      method: "POST",
      url: "/api/agents",
      headers: { ...owner.headers, "x-organization-id": second.id },
      payload: { name: "Viewer's agent" },
    });
    expect(write.statusCode).toBe(403);
    const foreign = await app.api.inject({
      url: "/api/agents",
      headers: { ...headers, "x-organization-id": other.id },
    });
    expect(foreign.statusCode).toBe(403);
    const agentsThere = rowsOf<{ n: number }>(
      await app.database.db.execute(
        sql`select count(*)::int as n from agents where organization_id = ${second.id}`,
      ),
    );
    expect(agentsThere[0]!.n).toBe(0);
  });

  test("switches its active organization among its own", async ({ app, org }) => {
    const second = await app.createOrganization("Switch target");
    const user = await memberOf(app, org, "member");
    await app.database.db
      .insert(memberships)
      .values({ organizationId: second.id, userId: user.userId, role: "admin" });
    const switched = await app.api.inject({
      method: "PATCH",
      url: "/api/auth/session",
      headers: user.headers,
      payload: { activeOrganizationId: second.id },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json().activeOrganizationId).toBe(second.id);
    const me = await app.api.inject({ url: "/api/me", headers: user.headers });
    expect(me.json()).toMatchObject({ organization: { id: second.id }, apiKeyId: null });
    const refused = await app.api.inject({
      method: "PATCH",
      url: "/api/auth/session",
      headers: user.headers,
      payload: { activeOrganizationId: (await app.createOrganization("Elsewhere")).id },
    });
    expect(refused.statusCode).toBe(403);
  });

  test("never writes a password, token or cookie into the audit log", async ({ app }) => {
    const rows = rowsOf<Record<string, unknown>>(
      await app.database.db.execute(sql`select * from audit_events`),
    );
    expect(rows.map((row) => row.action)).toEqual(
      expect.arrayContaining(["login.succeeded", "login.failed", "logout"]),
    );
    const text = JSON.stringify(rows);
    expect(text).not.toContain(TEST_PASSWORD);
    expect(text).not.toMatch(/ads_[\w-]{20}/);
    expect(text).not.toMatch(/adk_[\w-]{20}/);
  });
});
