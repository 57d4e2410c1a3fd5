import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { invitations, users } from "../../src/db/schema/index.ts";
import { sha256Hex } from "../../src/lib/secrets.ts";
import {
  memberOf,
  ownOrigin,
  type SignedIn,
  sessionCookieOf,
  signIn,
  TEST_PASSWORD,
} from "../harness/accounts.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import {
  auditOf,
  call,
  expectNoSecretsInAudit,
  invitationsOf,
  roleIn,
  tokenOf,
} from "./people-helpers.ts";

const NEW_PASSWORD = "a long new passphrase";
const INVALID_LINK = "This invitation link is invalid, used, expired or revoked";

const test = appTest({ offline: true, orgName: "Inviting", funded: false })
  .extend("owner", { scope: "file" }, ({ app, org }) => memberOf(app, org, "owner"))
  .extend("admin", { scope: "file" }, ({ app, org }) => memberOf(app, org, "admin"))
  .extend("viewer", { scope: "file" }, ({ app, org }) => memberOf(app, org, "viewer"));

/** Every token handed out, to check that none reaches the audit log. */
const tokens: string[] = [];

const invitationsUrl = (organizationId: string) =>
  `/api/organizations/${organizationId}/invitations`;
const acceptUrl = (token: string) => `/api/auth/invitations/${token}/accept`;

async function invite(
  { app, org, admin }: { app: TestApp; org: TestOrganization; admin: SignedIn },
  email: string,
  role = "member",
  by: SignedIn = admin,
) {
  const response = await call(app, "POST", invitationsUrl(org.id), by.headers, { email, role });
  expect(response.statusCode).toBe(201);
  const token = tokenOf(response.json().acceptUrl);
  tokens.push(token);
  return { ...response.json(), token } as { id: string; email: string; token: string };
}

/** Accepts without a session, as a visitor who opened the link. */
const acceptAnonymously = (app: TestApp, token: string, body: Record<string, unknown>) =>
  app.api.inject({ method: "POST", url: acceptUrl(token), payload: body });

describe("POST /api/organizations/{id}/invitations", () => {
  test("invites for 7 days with a one-time link whose token is stored hashed", async ({
    app,
    org,
    admin,
  }) => {
    const before = Date.now();
    const response = await call(app, "POST", invitationsUrl(org.id), admin.headers, {
      email: "  Newcomer@Example.com ",
      role: "member",
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.any(String),
      email: "newcomer@example.com",
      role: "member",
      expiresAt: expect.any(String),
      acceptUrl: expect.stringMatching(/\/console\/accept-invitation\?token=[\w-]{40,}$/),
      mail: "disabled",
    });
    expect(body.acceptUrl.startsWith(`${app.config.accounts.publicUrl}/console/`)).toBe(true);
    const expiresIn = Date.parse(body.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(expiresIn).toBeLessThan(7 * 24 * 3600_000 + 60_000);
    const token = tokenOf(body.acceptUrl);
    tokens.push(token);
    const [stored] = await app.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, body.id));
    expect(stored!.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const [event] = (await auditOf(app, org.id, "member.invited")).filter(
      (e) => e.targetId === body.id,
    );
    expect(event).toMatchObject({
      actorId: admin.userId,
      targetType: "invitation",
      details: { email: "newcomer@example.com", role: "member" },
    });
  });

  test("lists pending invitations without their links, and revokes them", async ({
    app,
    org,
    admin,
    viewer,
  }) => {
    const pending = await invite({ app, org, admin }, "pending@example.com", "viewer");
    const listed = await call(app, "GET", invitationsUrl(org.id), viewer.headers);
    expect(listed.statusCode).toBe(200);
    const mine = listed.json().data.find((row: { id: string }) => row.id === pending.id);
    expect(mine).toEqual({
      id: pending.id,
      email: "pending@example.com",
      role: "viewer",
      invitedById: admin.userId,
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(listed.body).not.toContain(pending.token);

    const revoked = await call(
      app,
      "DELETE",
      `${invitationsUrl(org.id)}/${pending.id}`,
      admin.headers,
    );
    expect(revoked.statusCode).toBe(204);
    const after = await call(app, "GET", invitationsUrl(org.id), admin.headers);
    expect(after.json().data.map((row: { id: string }) => row.id)).not.toContain(pending.id);
    const accept = await acceptAnonymously(app, pending.token, { password: NEW_PASSWORD });
    expect(accept.statusCode).toBe(400);
    expect(accept.json().error).toBe(INVALID_LINK);
    const again = await call(
      app,
      "DELETE",
      `${invitationsUrl(org.id)}/${pending.id}`,
      admin.headers,
    );
    expect(again.statusCode).toBe(404);
    const [event] = await auditOf(app, org.id, "invitation.revoked");
    expect(event).toMatchObject({
      actorId: admin.userId,
      targetId: pending.id,
      details: { email: "pending@example.com", role: "viewer" },
    });
  });

  test("refuses a viewer or a member, storing nothing", async ({ app, org, viewer }) => {
    const member = await memberOf(app, org, "member");
    const before = (await invitationsOf(app, org.id)).length;
    for (const by of [viewer, member]) {
      const response = await call(app, "POST", invitationsUrl(org.id), by.headers, {
        email: "sneaky@example.com",
        role: "viewer",
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().type).toBe("FORBIDDEN");
    }
    expect(await invitationsOf(app, org.id)).toHaveLength(before);
  });

  test("lets only owners invite owners", async ({ app, org, owner, admin }) => {
    const byAdmin = await call(app, "POST", invitationsUrl(org.id), admin.headers, {
      email: "boss@example.com",
      role: "owner",
    });
    expect(byAdmin.statusCode).toBe(403);
    expect(
      (await invitationsOf(app, org.id)).filter((i) => i.email === "boss@example.com"),
    ).toEqual([]);
    const byOwner = await invite({ app, org, admin }, "boss@example.com", "owner", owner);
    expect(byOwner).toMatchObject({ role: "owner" });
  });

  test("refuses a session of another organization, storing nothing there", async ({
    app,
    owner,
  }) => {
    const elsewhere = await app.createOrganization("Elsewhere");
    const response = await call(app, "POST", invitationsUrl(elsewhere.id), owner.headers, {
      email: "spy@example.com",
      role: "admin",
    });
    expect(response.statusCode).toBe(403);
    const listed = await call(app, "GET", invitationsUrl(elsewhere.id), owner.headers);
    expect(listed.statusCode).toBe(403);
    expect(await invitationsOf(app, elsewhere.id)).toEqual([]);
  });

  test("refuses to invite a member again, and bad e-mails and roles", async ({
    app,
    org,
    admin,
    viewer,
  }) => {
    const taken = await call(app, "POST", invitationsUrl(org.id), admin.headers, {
      email: viewer.email,
      role: "member",
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(`${viewer.email} is already a member of this organization`);
    for (const body of [
      { email: "not an e-mail", role: "member" },
      { email: "x@example.com", role: "emperor" },
      { email: "x@example.com" },
    ]) {
      const response = await call(app, "POST", invitationsUrl(org.id), admin.headers, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().type).toBe("INVALID_REQUEST");
    }
  });
});

describe("POST /api/auth/invitations/{token}/accept", () => {
  test("makes a new account, which joins, is signed in, and calls the API", async ({
    app,
    org,
    admin,
  }) => {
    const { token } = await invite({ app, org, admin }, "ada@example.com", "member");
    const noPassword = await acceptAnonymously(app, token, { name: "Ada" });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().error).toBe(
      "Choose a password (at least 10 characters) to create your account",
    );
    const short = await acceptAnonymously(app, token, { password: "short" });
    expect(short.statusCode).toBe(400);

    const accepted = await acceptAnonymously(app, token, { password: NEW_PASSWORD, name: "Ada" });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({
      user: { id: expect.any(String), email: "ada@example.com", name: "Ada" },
      organizations: [{ id: org.id, name: "Inviting", role: "member" }],
    });
    const headers = { cookie: sessionCookieOf(accepted), origin: ownOrigin(app) };
    const session = await call(app, "GET", "/api/auth/session", headers);
    expect(session.json().activeOrganizationId).toBe(org.id);
    const members = await call(app, "GET", `/api/organizations/${org.id}/members`, headers);
    expect(members.statusCode).toBe(200);
    // The new account signs in with the password it chose.
    await signIn(app, "ada@example.com", NEW_PASSWORD);

    const userId = accepted.json().user.id;
    const [event] = (await auditOf(app, org.id, "member.joined")).filter(
      (e) => e.targetId === userId,
    );
    expect(event).toMatchObject({
      actorId: userId,
      details: { role: "member", via: "invitation" },
    });
  });

  test("refuses a used, expired, revoked or forged token alike", async ({ app, org, admin }) => {
    const used = await invite({ app, org, admin }, "once@example.com");
    expect((await acceptAnonymously(app, used.token, { password: NEW_PASSWORD })).statusCode).toBe(
      200,
    );
    const expired = await invite({ app, org, admin }, "late@example.com");
    await app.database.db
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invitations.id, expired.id));
    for (const token of [used.token, expired.token, "forged-token-of-nobody"]) {
      const response = await acceptAnonymously(app, token, { password: NEW_PASSWORD });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ type: "INVALID_REQUEST", error: INVALID_LINK });
    }
    // Nobody was made for the expired invitation's e-mail.
    const late = await app.database.db
      .select()
      .from(users)
      .where(eq(users.email, "late@example.com"));
    expect(late).toEqual([]);
  });

  test("lets one of two simultaneous acceptances of a link win", async ({ app, org, admin }) => {
    const { token } = await invite({ app, org, admin }, "twice@example.com");
    const answers = await Promise.all(
      [1, 2].map(() => acceptAnonymously(app, token, { password: NEW_PASSWORD })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const made = await app.database.db
      .select()
      .from(users)
      .where(eq(users.email, "twice@example.com"));
    expect(made).toHaveLength(1);
  });

  test("lets an existing user signed in as the invited e-mail just join", async ({
    app,
    org,
    admin,
  }) => {
    const elsewhere = await app.createOrganization("Home");
    const person = await memberOf(app, elsewhere, "member");
    const { token } = await invite({ app, org, admin }, person.email, "admin");
    const accepted = await app.api.inject({
      method: "POST",
      url: acceptUrl(token),
      headers: person.headers,
      payload: {},
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().organizations).toEqual([
      { id: elsewhere.id, name: "Home", role: "member" },
      { id: org.id, name: "Inviting", role: "admin" },
    ]);
    // The same session, now acting in the joined organization.
    const session = await call(app, "GET", "/api/auth/session", person.headers);
    expect(session.json().activeOrganizationId).toBe(org.id);
    expect(await roleIn(app, org.id, person.userId)).toBe("admin");
  });

  test("refuses a user signed in as another e-mail (403), the invitation still pending", async ({
    app,
    org,
    admin,
    viewer,
  }) => {
    const { token, id } = await invite({ app, org, admin }, "someone-else@example.com");
    const response = await app.api.inject({
      method: "POST",
      url: acceptUrl(token),
      headers: viewer.headers,
      payload: { password: NEW_PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(
      `This invitation is for someone-else@example.com, and you are signed in as ${viewer.email}: sign out, then open the link again`,
    );
    const [stored] = (await invitationsOf(app, org.id)).filter((row) => row.id === id);
    expect(stored!.acceptedAt).toBeNull();
  });

  test("asks an existing user who is not signed in for their own password", async ({
    app,
    org,
    admin,
  }) => {
    const elsewhere = await app.createOrganization("Other home");
    const person = await memberOf(app, elsewhere, "viewer");
    const { token } = await invite({ app, org, admin }, person.email, "member");
    const none = await acceptAnonymously(app, token, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toContain("give its password, or sign in first");
    const wrong = await acceptAnonymously(app, token, { password: "not the password" });
    expect(wrong.statusCode).toBe(401);
    expect(await roleIn(app, org.id, person.userId)).toBeNull();
    const failed = await auditOf(app, elsewhere.id, "login.failed");
    expect(failed.map((event) => event.actorId)).toEqual([person.userId]);

    const right = await acceptAnonymously(app, token, { password: TEST_PASSWORD });
    expect(right.statusCode).toBe(200);
    expect(sessionCookieOf(right)).toMatch(/^agentdesk_session=ads_/);
    expect(await roleIn(app, org.id, person.userId)).toBe("member");
    // Its password stays the one it had.
    await signIn(app, person.email, TEST_PASSWORD);
  });

  test("writes no token or password in the audit log", async ({ app }) => {
    await expectNoSecretsInAudit(app, [...tokens, NEW_PASSWORD, TEST_PASSWORD]);
  });
});
