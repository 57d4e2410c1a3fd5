import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { parseConfig } from "../../src/config/index.ts";
import { auditEvents, invitations, oidcLogins, users } from "../../src/db/schema/index.ts";
import { newId } from "../../src/lib/ids.ts";
import { sha256Hex } from "../../src/lib/secrets.ts";
import {
  type OidcTestProvider,
  type OidcTestUser,
  startOidcProvider,
} from "../fakes/oidc-provider.ts";
import { startTcpProxy } from "../fakes/tcp-proxy.ts";
import { memberOf } from "../harness/accounts.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { type Browser, createBrowser, type Page } from "../harness/browser.ts";
import { appTest } from "../harness/fixtures.ts";

/**
 * Single sign-on against a real OpenID provider (oidc-provider) on 127.0.0.1: a browser made of
 * fetch calls goes from the service to the provider's login and consent forms and back, and
 * the service decides who comes in (DESIGN.md §10 "OIDC SSO").
 */

const test = appTest({ offline: true })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("proxy", { scope: "file" }, async ({}, { onCleanup }) => {
    // PUBLIC_URL must be known before the app starts, its port only after: a proxy in front.
    const listener = { host: "127.0.0.1", port: 0 };
    const proxy = await startTcpProxy(listener);
    onCleanup(() => proxy.close());
    return { listener, url: `http://127.0.0.1:${proxy.port}` };
  })
  .extend("provider", { scope: "file" }, async ({ proxy }, { onCleanup }) => {
    const provider = await startOidcProvider({
      redirectUri: `${proxy.url}/api/auth/oidc/callback`,
    });
    onCleanup(() => provider.close());
    return provider;
  })
  .override("env", { scope: "file" }, ({ proxy, provider }) => ({
    PUBLIC_URL: proxy.url,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_ALLOWED_DOMAINS: "example.com, @corp.example.com",
  }))
  /** PUBLIC_URL: the service as the browser and the provider know it, the app listening behind. */
  .extend("appUrl", { scope: "file" }, async ({ app, proxy }) => {
    proxy.listener.port = Number(new URL(await app.listen("api")).port);
    return proxy.url;
  })
  .extend("sso", { scope: "file" }, ({ app, provider, appUrl }) => ssoOf(app, provider, appUrl));

type SessionBody = {
  user: { id: string; email: string; name: string };
  organizations: Array<{ id: string; name: string; role: string }>;
  activeOrganizationId: string | null;
};

/** The steps of a sign-in and what they leave in the database, on this app and provider. */
function ssoOf(app: TestApp, provider: OidcTestProvider, appUrl: string) {
  function person(local: string, domain: string, overrides: Partial<OidcTestUser> = {}) {
    const user: OidcTestUser = {
      subject: `sub-${newId()}`,
      email: `${local}-${newId().toLowerCase()}@${domain}`,
      emailVerified: true,
      name: `${local} Example`,
      password: "provider password",
      ...overrides,
    };
    provider.addUser(user);
    return user;
  }

  const isCallback = (location: string) => location.startsWith(`${appUrl}/api/auth/oidc/callback`);

  /**
   * Signs `user` in at the provider, from the service's login link to the provider's redirect
   * back (its login form, then its consent form, each skipped once this browser has been
   * through it): the page returned is that redirect, whose Location is the service's callback.
   */
  async function throughProvider(browser: Browser, user: OidcTestUser): Promise<Page> {
    let page = await browser.follow(await browser.go(`${appUrl}/api/auth/oidc/login`), isCallback);
    if (page.body.includes('name="login"')) {
      expect(page.url.startsWith(provider.issuer)).toBe(true);
      page = await browser.submit(page, { login: user.email, password: user.password }, isCallback);
    }
    if (page.response.status === 200) page = await browser.submit(page, {}, isCallback);
    expect(isCallback(page.response.headers.get("location") ?? "")).toBe(true);
    return page;
  }

  /** The whole sign-in: the service's answer to the provider's callback. */
  async function signInWithSso(user: OidcTestUser, browser = createBrowser()) {
    const back = await throughProvider(browser, user);
    const callback = await browser.go(back.response.headers.get("location")!);
    return { browser, callback };
  }

  const userByEmail = async (email: string) =>
    (await app.database.db.select().from(users).where(eq(users.email, email)))[0];

  const auditOf = (userId: string) =>
    app.database.db.select().from(auditEvents).where(eq(auditEvents.actorId, userId));

  const failuresFor = (email: string) =>
    app.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actorEmail, email))
      .then((rows) => rows.filter((row) => row.action === "login.failed"));

  async function session(browser: Browser) {
    const response = await fetch(`${appUrl}/api/auth/session`, {
      headers: { cookie: browser.cookieHeader(appUrl) },
    });
    return { status: response.status, body: (await response.json()) as SessionBody };
  }

  return {
    person,
    throughProvider,
    signInWithSso,
    userByEmail,
    auditOf,
    failuresFor,
    session,
  };
}

describe("signing in with the OpenID provider", () => {
  test("makes a new user of an allowed domain a member of Default, who can call the API", async ({
    provider,
    appUrl,
    sso,
  }) => {
    const { person, signInWithSso, userByEmail, auditOf, session } = sso;
    const alice = person("alice", "example.com");
    const { browser, callback } = await signInWithSso(alice);

    expect(callback.response.status).toBe(302);
    expect(callback.response.headers.get("location")).toBe(`${appUrl}/console`);
    const current = await session(browser);
    expect(current.status).toBe(200);
    expect(current.body.user).toMatchObject({ email: alice.email, name: alice.name });
    expect(current.body.organizations).toEqual([
      { id: expect.any(String), name: "Default", role: "member" },
    ]);
    expect(current.body.activeOrganizationId).toBe(current.body.organizations[0]!.id);

    const agents = await fetch(`${appUrl}/api/agents`, {
      headers: { cookie: browser.cookieHeader(appUrl) },
    });
    expect(agents.status).toBe(200);

    const stored = await userByEmail(alice.email);
    expect(stored).toMatchObject({
      oidcIssuer: provider.issuer,
      oidcSubject: alice.subject,
      passwordHash: null,
    });
    const events = await auditOf(stored!.id);
    expect(events.map((event) => [event.action, event.details]).sort()).toEqual([
      ["login.succeeded", { method: "oidc" }],
      ["member.joined", { role: "member", via: "oidc" }],
    ]);
  });

  test("finds the same user by the provider's subject on the next sign-in", async ({ sso }) => {
    const { person, signInWithSso, userByEmail, auditOf, session } = sso;
    const bea = person("bea", "corp.example.com");
    await signInWithSso(bea);
    const first = await userByEmail(bea.email);
    const again = await signInWithSso(bea);

    expect(again.callback.response.status).toBe(302);
    expect((await session(again.browser)).body.user.id).toBe(first!.id);
    const joins = (await auditOf(first!.id)).filter((event) => event.action === "member.joined");
    expect(joins).toHaveLength(1);
  });

  test("lets an invited person of another domain join with the invitation's role", async ({
    app,
    sso,
  }) => {
    const { person, signInWithSso, auditOf, session } = sso;
    const acme = await app.createOrganization("Acme");
    const bob = person("bob", "partner.test");
    const invitationId = newId();
    await app.database.db.insert(invitations).values({
      id: invitationId,
      organizationId: acme.id,
      email: bob.email,
      role: "admin",
      tokenHash: sha256Hex(newId()),
      expiresAt: new Date(Date.now() + 86_400_000),
    });

    const { browser, callback } = await signInWithSso(bob);

    expect(callback.response.status).toBe(302);
    const current = await session(browser);
    expect(current.body.organizations).toEqual([{ id: acme.id, name: "Acme", role: "admin" }]);
    expect(current.body.activeOrganizationId).toBe(acme.id);
    const [invitation] = await app.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, invitationId));
    expect(invitation!.acceptedAt).toBeInstanceOf(Date);
    const joined = (await auditOf(current.body.user.id)).find(
      (event) => event.action === "member.joined",
    );
    expect(joined).toMatchObject({
      organizationId: acme.id,
      details: { role: "admin", via: "oidc", invitationId },
    });
  });

  test("links an existing user with a password to the identity on first use", async ({
    app,
    sso,
  }) => {
    const { person, signInWithSso, userByEmail, session } = sso;
    const org = await app.createOrganization("Linked");
    const erin = person("erin", "elsewhere.test");
    const existing = await memberOf(app, org, "viewer", erin.email);

    const { browser, callback } = await signInWithSso(erin);

    expect(callback.response.status).toBe(302);
    const current = await session(browser);
    expect(current.body.user.id).toBe(existing.userId);
    expect(current.body.organizations).toEqual([{ id: org.id, name: "Linked", role: "viewer" }]);
    expect(await userByEmail(erin.email)).toMatchObject({ oidcSubject: erin.subject });
  });
});

describe("refusals, each a page that says why", () => {
  async function expectRefusal(callback: Page, words: RegExp) {
    expect(callback.response.status).toBe(403);
    expect(callback.response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(callback.body).toMatch(words);
    expect(callback.response.headers.getSetCookie().join()).not.toContain("agentdesk_session=");
  }

  test("refuses a person of another domain who was not invited", async ({ sso }) => {
    const { person, signInWithSso, userByEmail, failuresFor } = sso;
    const carol = person("carol", "other.test");
    const { callback } = await signInWithSso(carol);

    await expectRefusal(callback, /no account or invitation for .*other\.test are not allowed/s);
    expect(await userByEmail(carol.email)).toBeUndefined();
    const [failed] = await failuresFor(carol.email);
    expect(failed!.details).toEqual({ method: "oidc", reason: "domain_not_allowed" });
  });

  test("refuses an e-mail the provider has not verified, even of an allowed domain", async ({
    sso,
  }) => {
    const { person, signInWithSso, userByEmail, failuresFor } = sso;
    const dave = person("dave", "example.com", { emailVerified: false });
    const { callback } = await signInWithSso(dave);

    await expectRefusal(callback, /has not verified the e-mail address/);
    expect(await userByEmail(dave.email)).toBeUndefined();
    const [failed] = await failuresFor(dave.email);
    expect(failed!.details).toEqual({ method: "oidc", reason: "email_unverified" });
  });

  test("refuses a callback replayed, forged, or opened in another browser", async ({
    app,
    sso,
  }) => {
    const { person, throughProvider } = sso;
    const fay = person("fay", "example.com");
    const browser = createBrowser();
    const back = await throughProvider(browser, fay);
    const callbackUrl = back.response.headers.get("location")!;

    const elsewhere = await createBrowser().go(callbackUrl);
    await expectRefusal(elsewhere, /not started in this browser/);
    // The attempt from elsewhere used the sign-in up: the right browser is refused too.
    await expectRefusal(await browser.go(callbackUrl), /already used/);

    const honest = createBrowser();
    const url = (await throughProvider(honest, fay)).response.headers.get("location")!;
    expect((await honest.go(url)).response.status).toBe(302);
    await expectRefusal(await honest.go(url), /already used/);

    const forged = new URL(url);
    forged.searchParams.set("state", "forged-state");
    await expectRefusal(await honest.go(forged.href), /expired, was already used/);
    const badCode = new URL((await throughProvider(honest, fay)).response.headers.get("location")!);
    badCode.searchParams.set("code", "forged-code");
    await expectRefusal(await honest.go(badCode.href), /did not confirm this sign-in/);
    expect(await app.database.db.select().from(oidcLogins)).toEqual([]);
  });

  test("refuses when the provider answers with an error (the person cancelled there)", async ({
    provider,
    appUrl,
  }) => {
    const browser = createBrowser();
    const start = await browser.go(`${appUrl}/api/auth/oidc/login`);
    const authorization = new URL(start.response.headers.get("location")!);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    const state = authorization.searchParams.get("state")!;
    const cancelled = new URLSearchParams({ error: "access_denied", state, iss: provider.issuer });

    const callback = await browser.go(`${appUrl}/api/auth/oidc/callback?${cancelled}`);

    await expectRefusal(callback, /did not confirm this sign-in \(access_denied\)/);
  });

  test("refuses a verified e-mail whose account is linked to another identity", async ({
    app,
    provider,
    sso,
  }) => {
    const { person, signInWithSso, failuresFor } = sso;
    const hal = person("hal", "example.com");
    await app.database.db.insert(users).values({
      id: newId(),
      email: hal.email,
      oidcIssuer: provider.issuer,
      oidcSubject: "someone-else",
    });
    const { callback } = await signInWithSso(hal);

    await expectRefusal(callback, /linked to another single sign-on identity/);
    const [failed] = await failuresFor(hal.email);
    expect(failed!.details).toEqual({ method: "oidc", reason: "identity_conflict" });
  });

  test("answers a callback without any query with the page, not a 500", async ({ appUrl }) => {
    const response = await fetch(`${appUrl}/api/auth/oidc/callback`);
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/Start again from the sign-in page/);
  });
});

describe("the audit log of sign-ins", () => {
  test("never holds a code, a state, a token or the client secret", async ({
    app,
    provider,
    appUrl,
    sso,
  }) => {
    const { person, throughProvider } = sso;
    const gil = person("gil", "example.com");
    const browser = createBrowser();
    const back = await throughProvider(browser, gil);
    const callbackUrl = new URL(back.response.headers.get("location")!);
    await browser.go(callbackUrl.href);
    const sessionToken = browser.cookieHeader(appUrl).match(/agentdesk_session=([^;]+)/)![1]!;

    const all = JSON.stringify(await app.database.db.select().from(auditEvents));
    for (const secret of [
      callbackUrl.searchParams.get("code")!,
      callbackUrl.searchParams.get("state")!,
      sessionToken,
      provider.clientSecret,
    ]) {
      expect(all).not.toContain(secret);
    }
    expect(all).toContain(gil.email);
  });
});

describe("without OIDC_ISSUER", () => {
  test("says single sign-on is off, and both steps answer 404", async ({ app }) => {
    const plain = await startTestApp();
    try {
      const providers = await plain.api.inject({ url: "/api/auth/providers" });
      expect(providers.json()).toEqual({ sso: { enabled: false } });
      for (const url of ["/api/auth/oidc/login", "/api/auth/oidc/callback?state=x&code=y"]) {
        const response = await plain.api.inject({ url });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({
          type: "NOT_FOUND",
          error: expect.stringContaining("OIDC_ISSUER"),
        });
      }
    } finally {
      await plain.close();
    }
    const on = await app.api.inject({ url: "/api/auth/providers" });
    expect(on.json()).toEqual({ sso: { enabled: true } });
  });

  test("refuses an http issuer that is not this machine at boot", () => {
    expect(() =>
      parseConfig({ OIDC_ISSUER: "http://sso.example.com", OIDC_CLIENT_ID: "agentdesk" }),
    ).toThrow(/OIDC_ISSUER: must be https/);
  });
});
