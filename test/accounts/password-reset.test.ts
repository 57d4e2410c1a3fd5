import { and, eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { accountTokens } from "../../src/db/schema/index.ts";
import { type FakeSmtp, linkIn, startFakeSmtp } from "../fakes/smtp-server.ts";
import { memberOf, type SignedIn, signIn, TEST_PASSWORD } from "../harness/accounts.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { auditOf, call, expectNoSecretsInAudit, invitationsOf, tokenOf } from "./people-helpers.ts";

const NEW_PASSWORD = "a brand new passphrase";
const INVALID_LINK = "This reset link is invalid, used or expired";

const test = appTest({ offline: true, orgName: "Forgetful", funded: false })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("smtp", { scope: "file" }, async ({}, { onCleanup }) => {
    const smtp = await startFakeSmtp();
    onCleanup(() => smtp.close());
    return smtp;
  })
  .override("env", { scope: "file" }, ({ smtp }) => ({
    SMTP_URL: smtp.url,
    MAIL_FROM: "desk@example.com",
  }));

const tokens: string[] = [];

const requestReset = (app: TestApp, email: string) =>
  app.api.inject({ method: "POST", url: "/api/auth/password-reset", payload: { email } });
const reset = (app: TestApp, token: string, password: string) =>
  app.api.inject({
    method: "POST",
    url: `/api/auth/password-reset/${token}`,
    payload: { password },
  });
const sessionStatus = (app: TestApp, signedIn: SignedIn["headers"]) =>
  call(app, "GET", "/api/auth/session", signedIn).then((response) => response.statusCode);

/** Asks for a reset of this e-mail and returns the token of the link mailed. */
async function mailedToken(
  { app, smtp }: { app: TestApp; smtp: FakeSmtp },
  email: string,
): Promise<string> {
  const mail = smtp.nextMailTo(email);
  const response = await requestReset(app, email);
  expect(response.statusCode).toBe(202);
  const received = await mail;
  expect(received.subject).toBe("Reset your agentdesk password");
  const link = linkIn(received, `${app.config.accounts.publicUrl}/console/reset-password?token=`);
  const token = new URL(link).searchParams.get("token")!;
  tokens.push(token);
  return token;
}

describe("password reset by e-mail", () => {
  test("mails a link that sets a new password once and ends every session", async ({
    app,
    smtp,
    org,
  }) => {
    const person = await memberOf(app, org, "member");
    const otherBrowser = await signIn(app, person.email);
    const token = await mailedToken({ app, smtp }, person.email);
    expect(smtp.received.at(-1)!.raw).toMatch(/^From: desk@example\.com/im);

    const done = await reset(app, token, NEW_PASSWORD);
    expect(done.statusCode).toBe(204);
    expect(await sessionStatus(app, person.headers)).toBe(401);
    expect(await sessionStatus(app, otherBrowser)).toBe(401);
    const old = await app.api.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: person.email, password: TEST_PASSWORD },
    });
    expect(old.statusCode).toBe(401);
    await signIn(app, person.email, NEW_PASSWORD);

    const reused = await reset(app, token, "yet another passphrase");
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ type: "INVALID_REQUEST", error: INVALID_LINK });
    await signIn(app, person.email, NEW_PASSWORD);

    const actions = (await auditOf(app, org.id))
      .filter((event) => event.actorId === person.userId)
      .map((event) => event.action);
    expect(actions).toContain("password.reset_requested");
    expect(actions).toContain("password.reset");
  });

  test("refuses an expired link, and keeps a link through a too short password", async ({
    app,
    smtp,
    org,
  }) => {
    const person = await memberOf(app, org, "viewer");
    const token = await mailedToken({ app, smtp }, person.email);
    const short = await reset(app, token, "short");
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe("The password must have at least 10 characters");
    await app.database.db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(
        and(eq(accountTokens.userId, person.userId), eq(accountTokens.purpose, "password_reset")),
      );
    const expired = await reset(app, token, NEW_PASSWORD);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toBe(INVALID_LINK);
    await signIn(app, person.email, TEST_PASSWORD);
    expect(await sessionStatus(app, person.headers)).toBe(200);
  });

  test("answers an unknown e-mail the same, and mails nothing to it", async ({
    app,
    smtp,
    org,
  }) => {
    const person = await memberOf(app, org, "member");
    const unknown = await requestReset(app, "nobody-here@example.com");
    const known = smtp.nextMailTo(person.email);
    const known202 = await requestReset(app, person.email);
    expect(unknown.statusCode).toBe(known202.statusCode);
    expect(unknown.json()).toEqual(known202.json());
    // The unknown e-mail's request had finished, sending nothing, before this mail was asked for.
    tokens.push(tokenOf(linkIn(await known, "http")));
    expect(smtp.received.filter((mail) => mail.to.includes("nobody-here@example.com"))).toEqual([]);
  });

  test("refuses a forged token", async ({ app }) => {
    const forged = await reset(app, "forged-token", NEW_PASSWORD);
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe(INVALID_LINK);
  });
});

describe("invitation mail", () => {
  test("mails the invitation with its accept link", async ({ app, smtp, org }) => {
    const admin = await memberOf(app, org, "admin");
    const mail = smtp.nextMailTo("colleague@example.com");
    const response = await call(
      app,
      "POST",
      `/api/organizations/${org.id}/invitations`,
      admin.headers,
      {
        email: "colleague@example.com",
        role: "member",
      },
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().mail).toBe("sent");
    const received = await mail;
    expect(received.subject).toBe("You are invited to Forgetful on agentdesk");
    expect(received.text).toContain("as member");
    const link = linkIn(
      received,
      `${app.config.accounts.publicUrl}/console/accept-invitation?token=`,
    );
    expect(link).toBe(response.json().acceptUrl);
    tokens.push(tokenOf(link));
    const accepted = await app.api.inject({
      method: "POST",
      url: `/api/auth/invitations/${tokenOf(link)}/accept`,
      payload: { password: NEW_PASSWORD, name: "Colleague" },
    });
    expect(accepted.statusCode).toBe(200);
  });

  test("keeps the invitation and says so when the mail server refuses it", async ({
    app,
    smtp,
    org,
  }) => {
    const admin = await memberOf(app, org, "admin");
    smtp.refuseRecipient("bounce@example.com");
    const response = await call(
      app,
      "POST",
      `/api/organizations/${org.id}/invitations`,
      admin.headers,
      {
        email: "bounce@example.com",
        role: "viewer",
      },
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ mail: "failed", email: "bounce@example.com" });
    tokens.push(tokenOf(response.json().acceptUrl));
    const stored = (await invitationsOf(app, org.id)).filter(
      (i) => i.email === "bounce@example.com",
    );
    expect(stored).toHaveLength(1);
  });

  test("writes no token or password in the audit log", async ({ app }) => {
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    await expectNoSecretsInAudit(app, [...tokens, NEW_PASSWORD, TEST_PASSWORD]);
  });
});

describe("without SMTP_URL", () => {
  test("refuses a reset request with 503 naming SMTP_URL", async () => {
    const plain = await startTestApp();
    try {
      const response = await plain.api.inject({
        method: "POST",
        url: "/api/auth/password-reset",
        payload: { email: "someone@example.com" },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ type: "SERVICE_UNAVAILABLE" });
      expect(response.json().error).toContain("SMTP_URL");
    } finally {
      await plain.close();
    }
  });
});
