import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { organizations, users } from "../../src/db/schema/index.ts";
import { memberOf, ownOrigin, sessionCookieOf } from "../harness/accounts.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { auditOf, call, expectNoSecretsInAudit, roleIn } from "./people-helpers.ts";

const PASSWORD = "signing up for real";

/** `app` as installed (sign-up closed), `open` another instance with SIGNUP=open. */
const test = appTest({ offline: true, orgName: "Where it began", funded: false })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("open", { scope: "file" }, async ({}, { onCleanup }) => {
    const open = await startTestApp({ env: { SIGNUP: "open" } });
    onCleanup(() => open.close());
    return open;
  })
  .extend("person", { scope: "file" }, ({ app, org }) => memberOf(app, org, "viewer"));

const organizationsNamed = (target: TestApp, name: string) =>
  target.database.db.select().from(organizations).where(eq(organizations.name, name));

describe("POST /api/organizations", () => {
  test("makes the signed-in user owner of a new organization", async ({ app, org, person }) => {
    const response = await call(app, "POST", "/api/organizations", person.headers, {
      name: "  Side project ",
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toEqual({ id: expect.any(String), name: "Side project", role: "owner" });
    expect(await roleIn(app, created.id, person.userId)).toBe("owner");
    const session = await call(app, "GET", "/api/auth/session", person.headers);
    expect(session.json().organizations).toEqual([
      { id: org.id, name: "Where it began", role: "viewer" },
      { id: created.id, name: "Side project", role: "owner" },
    ]);
    // The session had an active organization: it stays.
    expect(session.json().activeOrganizationId).toBe(org.id);
    const members = await call(
      app,
      "GET",
      `/api/organizations/${created.id}/members`,
      person.headers,
    );
    expect(members.json().data.map((m: { userId: string }) => m.userId)).toEqual([person.userId]);
    const [event] = await auditOf(app, created.id, "organization.created");
    expect(event).toMatchObject({
      actorType: "user",
      actorId: person.userId,
      targetType: "organization",
      targetId: created.id,
      details: { name: "Side project", via: "session" },
    });
  });

  test("refuses no session, a key, another site's page and a bad name, making nothing", async ({
    app,
    org,
    person,
  }) => {
    const attempts: { headers: Record<string, string>; status: number }[] = [
      { headers: {}, status: 401 },
      { headers: org.auth, status: 401 },
      { headers: { cookie: person.headers.cookie, origin: "https://evil.example" }, status: 403 },
      { headers: { cookie: person.headers.cookie }, status: 403 },
    ];
    for (const { headers, status } of attempts) {
      const response = await call(app, "POST", "/api/organizations", headers, { name: "Nope" });
      expect(response.statusCode).toBe(status);
    }
    for (const body of [{ name: "" }, { name: "x".repeat(101) }, {}]) {
      const response = await call(app, "POST", "/api/organizations", person.headers, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().type).toBe("INVALID_REQUEST");
    }
    expect(await organizationsNamed(app, "Nope")).toEqual([]);
  });
});

describe("POST /api/auth/signup", () => {
  const signup = (target: TestApp, body: Record<string, unknown>) =>
    target.api.inject({ method: "POST", url: "/api/auth/signup", payload: body });

  test("is closed with SIGNUP=invite (the default), making nobody", async ({ app }) => {
    const response = await signup(app, {
      email: "eager@example.com",
      name: "Eager",
      password: PASSWORD,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(
      "Sign-up is closed on this server (SIGNUP=invite): ask an administrator to invite you",
    );
    const made = await app.database.db
      .select()
      .from(users)
      .where(eq(users.email, "eager@example.com"));
    expect(made).toEqual([]);
  });

  test("with SIGNUP=open makes an account, its organization and a session", async ({ open }) => {
    const response = await signup(open, {
      email: "Founder@Example.com",
      name: "Grace",
      password: PASSWORD,
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      user: { id: expect.any(String), email: "founder@example.com", name: "Grace" },
      organizations: [{ id: expect.any(String), name: "Grace's organization", role: "owner" }],
    });
    const headers = { cookie: sessionCookieOf(response), origin: ownOrigin(open) };
    const session = await call(open, "GET", "/api/auth/session", headers);
    expect(session.json().activeOrganizationId).toBe(body.organizations[0].id);
    const me = await call(open, "GET", "/api/me", headers);
    expect(me.json()).toMatchObject({ userId: body.user.id, apiKeyId: null });
    const [event] = await auditOf(open, body.organizations[0].id, "organization.created");
    expect(event).toMatchObject({ actorId: body.user.id, details: { via: "signup" } });

    const named = await signup(open, {
      email: "second@example.com",
      name: "Linus",
      password: PASSWORD,
      organizationName: "Kernel",
    });
    expect(named.json().organizations[0].name).toBe("Kernel");
    await expectNoSecretsInAudit(open, [PASSWORD, sessionCookieOf(response).split("=")[1]!]);
  });

  test("makes one account of two simultaneous sign-ups with one e-mail", async ({ open }) => {
    const answers = await Promise.all(
      ["First", "Second"].map((name) =>
        signup(open, { email: "race@example.com", name, password: PASSWORD }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const made = await open.database.db
      .select()
      .from(users)
      .where(eq(users.email, "race@example.com"));
    expect(made).toHaveLength(1);
  });

  test("refuses a taken e-mail, a short password and a bad e-mail", async ({ open }) => {
    const taken = await signup(open, {
      email: "founder@example.com",
      name: "Impostor",
      password: PASSWORD,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(
      "An account with this e-mail exists: sign in, or reset its password",
    );
    const short = await signup(open, { email: "s@example.com", name: "S", password: "short" });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe("The password must have at least 10 characters");
    const bad = await signup(open, { email: "nope", name: "N", password: PASSWORD });
    expect(bad.statusCode).toBe(400);
    expect(await organizationsNamed(open, "Impostor's organization")).toEqual([]);
    expect(await organizationsNamed(open, "S's organization")).toEqual([]);
  });
});
