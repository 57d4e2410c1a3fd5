import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, onTestFinished } from "vitest";
import { auditEvents, memberships } from "../../src/db/schema/index.ts";
import { newId } from "../../src/lib/ids.ts";
import { startReceiver } from "../fakes/http-receiver.ts";
import { memberOf } from "../harness/accounts.ts";
import {
  consoleTest,
  expectAccessible,
  PHONE,
  runsConsole,
  screenshot,
  signedInPage,
} from "./console-fixtures.ts";

const test = consoleTest({ orgName: "Northwind Support" });

const SUB_PAGES = [
  ["Organization", "organization"],
  ["Members", "members"],
  ["API keys", "api-keys"],
  ["Event subscriptions", "event-subscriptions"],
  ["Audit log", "audit-log"],
] as const;

/** Opens a settings page and waits for its heading. */
async function open(page: Page, apiUrl: string, path: string, heading: string) {
  await page.goto(`${apiUrl}/console/settings/${path}`);
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
}

describe.skipIf(!runsConsole)("settings", () => {
  test("an owner renames the organization and sets its retention", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const { page, user } = await signedInPage(browser, app, apiUrl, org, "owner", onTestFinished);
    await page.goto(`${apiUrl}/console/settings`);
    await page.getByRole("heading", { name: "Organization", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/console/settings/organization");
    const nav = page.getByRole("navigation", { name: "Settings" });
    await expect
      .poll(() => nav.getByRole("link", { name: "Organization" }).getAttribute("aria-current"))
      .toBe("page");
    expect(await nav.getByRole("link", { name: "Members" }).getAttribute("aria-current")).toBe(
      null,
    );

    await expect
      .poll(() => page.getByLabel("Name", { exact: true }).inputValue())
      .toBe("Northwind Support");
    await expect.poll(() => page.getByLabel("Keep conversations forever").isChecked()).toBe(true);
    await expectAccessible(page);

    // A refusal of the API is shown as it says it.
    await page.getByLabel("Name", { exact: true }).fill("   ");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toMatch(/name/i);

    await page.getByLabel("Name", { exact: true }).fill("Northwind Care");
    await page.getByLabel("Erase conversations after a number of days").check();
    await page.getByLabel("Days kept").fill("45");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").getByText("Saved.").waitFor();

    const stored = await app.api.inject({
      url: `/api/organizations/${org.id}`,
      headers: user.headers,
    });
    expect(stored.json()).toMatchObject({ name: "Northwind Care", conversationRetentionDays: 45 });
    // The top bar follows the session's name of the organization.
    await page.getByRole("heading", { name: "Northwind Care", level: 2 }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "settings-organization");
  });

  test("a viewer reads the settings, makes an organization of their own and switches to it", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const { page, user } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished);
    await open(page, apiUrl, "organization", "Organization");
    await page.getByText("Only owners and admins can change these settings").waitFor();
    expect(await page.getByRole("button", { name: "Save changes" }).count()).toBe(0);
    await page.getByText(/Kept forever|Erased after/).waitFor();
    await expectAccessible(page);

    await page.getByLabel("Organization name").fill("Viewer's lab");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.getByRole("button", { name: "Switch to Viewer's lab" }).click();
    await page.getByRole("heading", { name: "Viewer's lab", level: 2 }).waitFor();
    // Its owner now: the settings can be changed.
    await page.getByRole("button", { name: "Save changes" }).waitFor();
    const session = await app.api.inject({ url: "/api/auth/session", headers: user.headers });
    const created = session
      .json()
      .organizations.find((o: { name: string }) => o.name === "Viewer's lab");
    expect(created).toMatchObject({ role: "owner" });
    expect(session.json().activeOrganizationId).toBe(created.id);

    for (const [heading, path] of SUB_PAGES.slice(1)) {
      await page
        .getByRole("navigation", { name: "Settings" })
        .getByRole("link", { name: heading })
        .click();
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/console/settings/${path}`);
    }
  });

  test("members: invite with a link to pass on, change a role, the last owner cannot leave", async ({
    app,
    apiUrl,
    browser,
  }) => {
    const team = await app.createOrganization("Members team");
    const { page, user } = await signedInPage(browser, app, apiUrl, team, "owner", onTestFinished);
    // The signed-in owner is the only owner left.
    await app.database.db.delete(memberships).where(eq(memberships.userId, team.userId));
    const colleague = await memberOf(app, team, "member", "dana@example.com");

    await open(page, apiUrl, "members", "Members");
    const row = page.getByRole("row", { name: /dana@example\.com/ });
    await row.waitFor();
    await expectAccessible(page);

    await page.getByLabel("Role of member").selectOption("viewer");
    await row.getByRole("button", { name: "Save role of member" }).click();
    await expect
      .poll(async () => {
        const members = await app.api.inject({
          url: `/api/organizations/${team.id}/members`,
          headers: user.headers,
        });
        return members.json().data.find((m: { userId: string }) => m.userId === colleague.userId)
          ?.role;
      })
      .toBe("viewer");

    // Invitations: the link is the way to send it when the server sends no mail.
    await page.getByLabel("E-mail address").fill("new.hire@example.com");
    await page.getByLabel("Role", { exact: true }).selectOption("admin");
    await page.getByRole("button", { name: "Create invitation" }).click();
    const link = page.getByLabel("Invitation link");
    await link.waitFor();
    expect(await link.inputValue()).toMatch(/\/console\/accept-invitation\?token=\S+$/);
    await page.getByText("This server sends no mail (no SMTP_URL)").waitFor();
    await page.getByRole("row", { name: /new\.hire@example\.com/ }).waitFor();
    const invitations = await app.api.inject({
      url: `/api/organizations/${team.id}/invitations`,
      headers: user.headers,
    });
    expect(invitations.json().data).toMatchObject([
      { email: "new.hire@example.com", role: "admin" },
    ]);
    await expectAccessible(page);
    await page.evaluate("window.scrollTo(0, 0)");
    await screenshot(page, "settings-members");

    // Inviting a member again: the API's refusal is shown.
    await page.getByLabel("E-mail address").fill("dana@example.com");
    await page.getByRole("button", { name: "Create invitation" }).click();
    await page
      .getByRole("alert")
      .getByText(/already a member/i)
      .waitFor();

    // Revoking the invitation.
    await page.getByRole("button", { name: "Revoke invitation of new.hire@example.com" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
    await page.getByText("No pending invitations").waitFor();

    // The last owner cannot leave: the API says so and the console shows it.
    await page.getByRole("button", { name: "Leave", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Leave" }).click();
    await page
      .getByRole("alert")
      .getByText("The organization's last owner cannot be removed: make another member owner first")
      .waitFor();
    await expectAccessible(page);
  });

  test("API keys: made with one scope and shown once, working, listed, revoked, audited", async ({
    app,
    apiUrl,
    browser,
    org,
    agent,
  }) => {
    const { page, user } = await signedInPage(browser, app, apiUrl, org, "admin", onTestFinished);
    await open(page, apiUrl, "api-keys", "API keys");
    await page.getByRole("button", { name: "Create key" }).waitFor();
    await expectAccessible(page);

    await page.getByLabel("Name", { exact: true }).fill("Reporting robot");
    await page.getByLabel("Only the scopes chosen below").check();
    await page.getByRole("checkbox", { name: /agents:read/ }).check();
    await page.getByLabel("Only the agents chosen below").check();
    await page.getByRole("checkbox", { name: agent.name }).check();
    await page.getByLabel("Requests per minute").fill("60");
    await page.getByLabel("Monthly credit budget").fill("25");
    await page.getByRole("button", { name: "Create key" }).click();

    await page.getByText("Copy it now: you will not see it again.").waitFor();
    const secret = await page.getByLabel("API key").inputValue();
    expect(secret).toMatch(/^\S{20,}$/);
    await expectAccessible(page);
    await screenshot(page, "settings-api-keys");

    const works = await app.api.inject({
      url: "/api/agents",
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(works.statusCode, works.body).toBe(200);
    expect(works.json().map((a: { id: string }) => a.id)).toEqual([agent.id]);
    const keys = await app.api.inject({ url: "/api/api-keys", headers: user.headers });
    const made = keys.json().find((k: { name: string }) => k.name === "Reporting robot");
    expect(made).toMatchObject({
      scopes: ["agents:read"],
      agentIds: [agent.id],
      rateLimitPerMinute: 60,
      monthlyCreditBudget: 25,
      expiresAt: null,
    });

    await page.getByRole("button", { name: "I have copied it" }).click();
    const listed = page.getByRole("row", { name: /Reporting robot/ });
    await listed.waitFor();
    expect(await listed.textContent()).toContain("agents:read");
    expect(await listed.textContent()).toContain(agent.name);
    expect(await page.content()).not.toContain(secret);

    // The audit log lists the key's creation, by this admin.
    await page
      .getByRole("navigation", { name: "Settings" })
      .getByRole("link", { name: "Audit log" })
      .click();
    await page.getByRole("heading", { name: "Audit log", level: 1 }).waitFor();
    await page.getByLabel("Action").selectOption("key.created");
    const created = page.getByRole("row", { name: /key\.created/ });
    await created.waitFor();
    expect(await created.textContent()).toContain(user.email);
    expect(await created.textContent()).toContain("Reporting robot");
    await expectAccessible(page);
    await page.getByLabel("Action").selectOption("");
    await page
      .getByRole("row", { name: /login\.succeeded/ })
      .first()
      .waitFor();
    await screenshot(page, "settings-audit-log");

    await page
      .getByRole("navigation", { name: "Settings" })
      .getByRole("link", { name: "API keys" })
      .click();
    await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Revoke Reporting robot" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
    await listed.waitFor({ state: "detached" });
    const refused = await app.api.inject({
      url: "/api/agents",
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(refused.statusCode).toBe(401);
  });

  test("the audit log pages by cursor and filters by person", async ({ app, apiUrl, browser }) => {
    const busy = await app.createOrganization("Busy");
    const sweeps = Array.from({ length: 60 }, (_, i) => ({
      id: newId(),
      organizationId: busy.id,
      action: "retention.swept",
      actorType: "system" as const,
      details: { conversations: i + 1, days: 30 },
      at: new Date(Date.now() - (i + 1) * 60_000),
    }));
    await app.database.db.insert(auditEvents).values(sweeps);
    const { page, user } = await signedInPage(browser, app, apiUrl, busy, "admin", onTestFinished);
    await open(page, apiUrl, "audit-log", "Audit log");
    const rows = page.locator("tbody tr");
    await page.getByRole("button", { name: "Load more" }).waitFor();
    expect(await rows.count()).toBe(50);
    await page.getByText("50 events shown").waitFor();
    await page.getByRole("button", { name: "Load more" }).click();
    await page.getByText(/events shown, the oldest reached/).waitFor();
    const listed = await app.api.inject({
      url: "/api/audit-events?limit=200",
      headers: user.headers,
    });
    expect(await rows.count()).toBe(listed.json().data.length);
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);

    await page.getByLabel("Person").selectOption(user.userId);
    await page.getByRole("row", { name: /login\.succeeded/ }).waitFor();
    expect(await page.getByRole("row", { name: /retention\.swept/ }).count()).toBe(0);
    await page.getByLabel("Action").selectOption("key.revoked");
    await page.getByText("No events match these filters").waitFor();
    await expectAccessible(page);
  });

  test("event subscriptions: added with its events, deliveries shown, a refusal, deleted", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    const { page, user } = await signedInPage(browser, app, apiUrl, org, "owner", onTestFinished);
    await open(page, apiUrl, "event-subscriptions", "Event subscriptions");
    await page.getByText("No event subscriptions").waitFor();
    await expectAccessible(page);

    const url = `${receiver.url}/helpdesk`;
    await page.getByLabel("URL").fill(url);
    await page.getByRole("checkbox", { name: /conversation\.human_requested/ }).check();
    await page.getByRole("checkbox", { name: /conversation\.resolved/ }).check();
    await page.getByRole("button", { name: "Add subscription" }).click();
    const card = page.getByRole("listitem").filter({ hasText: `${url}` });
    await card.waitFor();
    const stored = await app.api.inject({ url: "/api/event-subscriptions", headers: user.headers });
    expect(stored.json().data).toMatchObject([
      { url, events: ["conversation.human_requested", "conversation.resolved"] },
    ]);
    await card.getByRole("button", { name: /Show deliveries/ }).click();
    await page.getByText("Nothing was sent to this URL yet.").waitFor();
    await expectAccessible(page);
    await screenshot(page, "settings-event-subscriptions");

    // lead.created is the instance's: the API refuses it to an organization's owner.
    await page.getByLabel("URL").fill(`${receiver.url}/leads`);
    await page.getByRole("checkbox", { name: /lead\.created/ }).check();
    await page.getByRole("button", { name: "Add subscription" }).click();
    await page
      .getByRole("alert")
      .getByText(/only an instance administrator/)
      .waitFor();

    await page.getByRole("button", { name: `Delete subscription to ${url}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByText("No event subscriptions").waitFor();
    const after = await app.api.inject({ url: "/api/event-subscriptions", headers: user.headers });
    expect(after.json().data).toEqual([]);
  });

  test("a member sees no key form, and what they may not do is explained", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await open(page, apiUrl, "api-keys", "API keys");
    await page.getByText("Only owners and admins see and manage API keys.").waitFor();
    expect(await page.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(await page.getByRole("table").count()).toBe(0);
    await expectAccessible(page);

    await open(page, apiUrl, "event-subscriptions", "Event subscriptions");
    await page.getByText("Only owners and admins see and manage event subscriptions.").waitFor();
    await open(page, apiUrl, "audit-log", "Audit log");
    await page.getByText("Only owners and admins read the audit log.").waitFor();
    await expectAccessible(page);

    await open(page, apiUrl, "members", "Members");
    await page.getByRole("table").first().waitFor();
    expect(await page.getByRole("button", { name: "Create invitation" }).count()).toBe(0);
    expect(await page.getByRole("combobox").count()).toBe(0);
    await page.getByText("Only owners and admins invite people and change roles").waitFor();
    await expectAccessible(page);
  });

  test("every settings page fits a phone's screen", async ({ app, apiUrl, browser, org }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "owner", onTestFinished, PHONE);
    for (const [heading, path] of SUB_PAGES) {
      await open(page, apiUrl, path, heading);
      await page.waitForLoadState("networkidle");
      await page.locator(".state-loading").waitFor({ state: "detached" });
      const width = await page.evaluate("document.documentElement.scrollWidth");
      expect(width, path).toBeLessThanOrEqual(PHONE.width);
    }
  });
});
