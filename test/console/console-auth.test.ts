import { describe, expect, onTestFinished } from "vitest";
import { memberships } from "../../src/db/schema/index.ts";
import { linkIn, startFakeSmtp } from "../fakes/smtp-server.ts";
import { memberOf, TEST_PASSWORD } from "../harness/accounts.ts";
import {
  consoleTest,
  expectAccessible,
  newPage,
  runsConsole,
  screenshot,
  signedInPage,
} from "./console-fixtures.ts";

const test = consoleTest()
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

const NEW_PASSWORD = "a brand new password";

/** The path and query of a link the service made (its PUBLIC_URL is not the test's port). */
const onTestServer = (link: string, apiUrl: string) => {
  const url = new URL(link);
  return `${apiUrl}${url.pathname}${url.search}`;
};

// In order: the first test makes the first owner, which only works while nobody can sign in.
describe.skipIf(!runsConsole)("the pages before signing in", () => {
  test("the setup link makes the first owner, signed in to the console", async ({
    app,
    apiUrl,
    browser,
  }) => {
    const link = await app.runtime.services.accounts.setupLink();
    expect(link).not.toBeNull();
    const page = await newPage(browser, onTestFinished);

    await page.goto(`${apiUrl}/console/setup`);
    await page.getByRole("alert").getByText("agentdesk setup-link").waitFor();

    await page.goto(onTestServer(link!, apiUrl));
    await page.getByRole("heading", { name: "Set up agentdesk" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "setup");
    await page.getByLabel("Email").fill("olga@example.com");
    await page.getByLabel("Name").fill("Olga");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    // The browser's own check comes first: nothing is sent with a password under 10 characters.
    expect(await app.runtime.services.accounts.setupLink()).not.toBeNull();

    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    await page.getByText("Olga · owner").waitFor();
    expect(await app.runtime.services.accounts.setupLink()).toBeNull();
  });

  test("an invitation link makes a new member, who lands in the organization", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const owner = await memberOf(app, org, "owner");
    const invited = await app.api.inject({
      method: "POST",
      url: `/api/organizations/${org.id}/invitations`,
      headers: owner.headers,
      payload: { email: "nina@example.com", role: "member" },
    });
    expect(invited.statusCode).toBe(201);
    const page = await newPage(browser, onTestFinished);
    await page.goto(onTestServer(invited.json().acceptUrl, apiUrl));
    await page.getByRole("heading", { name: "Accept invitation" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "accept-invitation");
    await page.getByLabel("Name").fill("Nina");
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    await page.getByText("Nina · member").waitFor();

    // Used once: the link now says why it does not work.
    const again = await newPage(browser, onTestFinished);
    await again.goto(onTestServer(invited.json().acceptUrl, apiUrl));
    await again.getByLabel("Password").fill(TEST_PASSWORD);
    await again.getByRole("button", { name: "Accept invitation" }).click();
    await again.getByRole("alert").waitFor();
  });

  test("a forgotten password is reset through the mailed link", async ({
    app,
    apiUrl,
    browser,
    org,
    smtp,
  }) => {
    const member = await memberOf(app, org, "member");
    const page = await newPage(browser, onTestFinished);
    await page.goto(`${apiUrl}/console/sign-in`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByRole("heading", { name: "Reset your password" }).waitFor();
    await expectAccessible(page);
    const mail = smtp.nextMailTo(member.email);
    await page.getByLabel("Email").fill(member.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("status").getByText("a link to choose a new password").waitFor();

    const link = linkIn(
      await mail,
      `${app.config.accounts.publicUrl}/console/reset-password?token=`,
    );
    await page.goto(onTestServer(link, apiUrl));
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("status").getByText("Your password is changed").waitFor();
    await expectAccessible(page);

    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill(member.email);
    await page.getByLabel("Password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();

    // The link works once.
    await page.goto(onTestServer(link, apiUrl));
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("alert").waitFor();
  });

  test("without single sign-on configured, the sign-in page offers none", async ({
    apiUrl,
    browser,
  }) => {
    const page = await newPage(browser, onTestFinished);
    await page.goto(`${apiUrl}/console/sign-in`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("link", { name: "Sign in with single sign-on" }).count()).toBe(0);
  });
});

describe.skipIf(!runsConsole)("organizations", () => {
  test("a person in two organizations switches between them", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const { page, user } = await signedInPage(browser, app, apiUrl, org, "admin", onTestFinished);
    const other = await app.createOrganization("Globex");
    await app.database.db
      .insert(memberships)
      .values({ organizationId: other.id, userId: user.userId, role: "viewer" });

    await page.goto(`${apiUrl}/console/agents`);
    const switcher = page.getByLabel("Organization");
    await switcher.selectOption({ label: "Globex (viewer)" });
    await page.getByText("admin · viewer").waitFor();
    const session = await app.api.inject({ url: "/api/auth/session", headers: user.headers });
    expect(session.json().activeOrganizationId).toBe(other.id);
    await expectAccessible(page);
  });
});
