import { describe, expect } from "vitest";
import { ownOrigin, sessionCookieOf } from "../harness/accounts.ts";
import { startTestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true, env: { BOOTSTRAP_DEFAULT_ORG: "true" } }).extend(
  "other",
  { scope: "file" },
  async ({ app }, { onCleanup }) => {
    // A second API process on the same database.
    const other = await startTestApp({ database: app.database });
    onCleanup(() => other.close());
    return other;
  },
);

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

describe("the first owner", () => {
  let link: string;

  test("is made through a one-time setup link while nobody can sign in", async ({ app }) => {
    await app.runtime.services.organizations.ensureDefaultOrganization();
    link = (await app.runtime.services.accounts.setupLink())!;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:3000\/console\/setup\?token=[\w-]{40,}$/);

    const weak = await app.api.inject({
      method: "POST",
      url: "/api/auth/setup",
      payload: { token: tokenOf(link), email: "boss@example.com", name: "Boss", password: "short" },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toMatch(/at least 10 characters/);

    const forged = await app.api.inject({
      method: "POST",
      url: "/api/auth/setup",
      payload: {
        token: "forged-token",
        email: "boss@example.com",
        name: "Boss",
        password: "a long password",
      },
    });
    expect(forged.statusCode).toBe(400);

    const made = await app.api.inject({
      method: "POST",
      url: "/api/auth/setup",
      payload: {
        token: tokenOf(link),
        email: "Boss@Example.com",
        name: "Boss",
        password: "a long password",
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({
      user: { email: "boss@example.com", name: "Boss" },
      organizations: [{ name: "Default", role: "owner" }],
    });
    const cookie = sessionCookieOf(made);
    // The owner administers the instance too: the admin API takes the session.
    const leads = await app.api.inject({ url: "/api/admin/organizations", headers: { cookie } });
    expect(leads.statusCode, leads.body).toBe(200);
  });

  test("cannot be made twice: the link and any other are dead once somebody can sign in", async ({
    app,
  }) => {
    const again = await app.api.inject({
      method: "POST",
      url: "/api/auth/setup",
      payload: {
        token: tokenOf(link),
        email: "intruder@example.com",
        name: "X",
        password: "a long password",
      },
    });
    expect(again.statusCode).toBe(400);
    expect(await app.runtime.services.accounts.setupLink()).toBeNull();
  });

  test("logs out on one process and is refused on the other at once", async ({ app, other }) => {
    const login = await other.api.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "boss@example.com", password: "a long password" },
    });
    const cookie = sessionCookieOf(login);
    // Both processes have verified (and kept) the session.
    expect((await app.api.inject({ url: "/api/agents", headers: { cookie } })).statusCode).toBe(
      200,
    );
    expect((await other.api.inject({ url: "/api/agents", headers: { cookie } })).statusCode).toBe(
      200,
    );
    const logout = await other.api.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { cookie, origin: ownOrigin(other) },
    });
    expect(logout.statusCode).toBe(204);
    await expect
      .poll(
        async () => (await app.api.inject({ url: "/api/agents", headers: { cookie } })).statusCode,
        {
          timeout: 5_000,
          interval: 20,
        },
      )
      .toBe(401);
  });
});
