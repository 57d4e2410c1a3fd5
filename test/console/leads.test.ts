import type { Page } from "playwright-core";
import { describe, expect, onTestFinished } from "vitest";
import { leads } from "../../src/db/schema/index.ts";
import { newId } from "../../src/lib/ids.ts";
import { instanceAdminOf } from "../harness/accounts.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import {
  consoleTest,
  expectAccessible,
  newPage,
  PHONE,
  runsConsole,
  screenshot,
  signedInPage,
} from "./console-fixtures.ts";

const test = consoleTest({ env: { LEAD_RATE_LIMIT_PER_MINUTE: "1000" } });

type Browser = Parameters<typeof newPage>[0];

/** An instance administrator (owner of `org`), signed in, in a tab of their own. */
async function administratorPage(
  browser: Browser,
  app: TestApp,
  apiUrl: string,
  org: TestOrganization,
): Promise<Page> {
  const administrator = await instanceAdminOf(app, org);
  const page = await newPage(browser, onTestFinished);
  const [name, value] = administrator.headers.cookie.split("=") as [string, string];
  await page.context().addCookies([{ name, value, url: apiUrl, httpOnly: true, sameSite: "Lax" }]);
  return page;
}

/** The names in the inbox's table, top to bottom. */
const namesShown = (page: Page) =>
  page
    .getByRole("table", { name: "Leads, newest first" })
    .locator("tbody tr td:nth-child(2)")
    .allTextContents();

async function applyFilters(page: Page, filters: Record<string, string>) {
  for (const [label, value] of Object.entries(filters)) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByRole("button", { name: "Apply filters" }).click();
}

describe.skipIf(!runsConsole)("the leads inbox", () => {
  test("is empty until the site's forms send leads", async ({ app, apiUrl, browser, org }) => {
    const page = await administratorPage(browser, app, apiUrl, org);
    await page.goto(`${apiUrl}/console/leads`);
    await page.getByText("No leads yet").waitFor();
    await expectAccessible(page);
  });

  test("shows an instance administrator the site's leads, filtered and exported", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const siteUrl = await app.listen("site");
    const sent = [
      {
        name: "Ada Lovelace",
        email: "ada@engines.example",
        source: "roi-calculator",
        company: "Analytical Engines",
        phone: "+1 555 010 2030",
        industry: "Computing",
        score: 420,
      },
      { name: "Grace Hopper", email: "grace@navy.example", source: "blog-cta", postSlug: "ai" },
      { name: "Alan Turing", email: "alan@bletchley.example", source: "roi-calculator" },
    ];
    for (const lead of sent) {
      const posted = await fetch(`${siteUrl}/api/leads`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(lead),
      });
      expect(posted.status).toBe(201);
    }

    const page = await administratorPage(browser, app, apiUrl, org);
    await page.goto(`${apiUrl}/console/leads`);
    await page.getByRole("table", { name: "Leads, newest first" }).waitFor();
    const listed = await app.admin.admin.listLeads();
    expect(listed.body.data.map((lead: { name: string }) => lead.name)).toEqual([
      "Alan Turing",
      "Grace Hopper",
      "Ada Lovelace",
    ]);
    expect(await namesShown(page)).toEqual(["Alan Turing", "Grace Hopper", "Ada Lovelace"]);
    await page.getByText("Details of Ada Lovelace").click();
    await page.getByText("+1 555 010 2030").waitFor();
    await expectAccessible(page);
    await screenshot(page, "leads");

    // A filter, kept in the address; the export link carries it and downloads those leads.
    await applyFilters(page, { Source: "roi-calculator" });
    await page.waitForURL(/source=roi-calculator/);
    await page.getByRole("row", { name: /Grace Hopper/ }).waitFor({ state: "detached" });
    expect(await namesShown(page)).toEqual(["Alan Turing", "Ada Lovelace"]);
    const exportLink = page.getByRole("link", { name: "Export CSV" });
    const href = await exportLink.getAttribute("href");
    expect(href).toBe("/api/admin/leads/export?source=roi-calculator");
    const download = await page.request.get(new URL(href!, apiUrl).toString());
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = (await download.text()).trim().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^id,created_at,name,email,/);
    expect(lines[1]).toContain('"alan@bletchley.example"');
    expect(lines[2]).toContain('"ada@engines.example"');

    // The e-mail filter ignores case; clearing shows every lead again.
    await applyFilters(page, { Source: "", Email: "GRACE@navy.example" });
    await page.getByRole("row", { name: /Alan Turing/ }).waitFor({ state: "detached" });
    expect(await namesShown(page)).toEqual(["Grace Hopper"]);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.getByRole("row", { name: /Alan Turing/ }).waitFor();
    expect(await namesShown(page)).toEqual(["Alan Turing", "Grace Hopper", "Ada Lovelace"]);
    expect(new URL(page.url()).search).toBe("");

    await applyFilters(page, { Source: "no-such-form" });
    await page.getByText("No leads match these filters").waitFor();
    await expectAccessible(page);
  });

  test("pages through many leads, and shows the API's refusal of bad dates", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    // More than a page: stored as the site would, one second apart.
    const start = Date.parse("2025-03-01T12:00:00Z");
    await app.database.db.insert(leads).values(
      Array.from({ length: 55 }, (_, index) => ({
        id: newId(),
        name: `Bulk ${String(index).padStart(2, "0")}`,
        email: `bulk${index}@example.com`,
        source: "bulk",
        createdAt: new Date(start + index * 1_000),
      })),
    );
    const page = await administratorPage(browser, app, apiUrl, org);
    await page.goto(`${apiUrl}/console/leads?source=bulk`);
    await page.getByRole("table", { name: "Leads, newest first" }).waitFor();
    expect(await page.getByLabel("Source", { exact: true }).inputValue()).toBe("bulk");
    const firstPage = await namesShown(page);
    expect(firstPage).toHaveLength(50);
    expect(firstPage[0]).toBe("Bulk 54");
    await page.getByRole("button", { name: "Older leads" }).click();
    await page.getByText("Page 2").waitFor();
    expect(await namesShown(page)).toEqual(["Bulk 04", "Bulk 03", "Bulk 02", "Bulk 01", "Bulk 00"]);
    expect(await page.getByRole("button", { name: "Older leads" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Newer leads" }).click();
    await page.getByText("Page 1").waitFor();
    expect(await namesShown(page)).toEqual(firstPage);

    // On a phone the table scrolls in its frame; the page does not.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(page);

    await applyFilters(page, { "Received from": "2025-03-02", "Received until": "2025-03-01" });
    await page.getByRole("alert").getByText("since must be before until").waitFor();
    await expectAccessible(page);
  });

  test("tells a member who is not an instance administrator whom leads are for", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const { page, user } = await signedInPage(browser, app, apiUrl, org, "owner", onTestFinished);
    const refused = await app.api.inject({ url: "/api/admin/leads", headers: user.headers });
    expect(refused.statusCode).toBe(403);
    await page.goto(`${apiUrl}/console/leads`);
    await page.getByRole("heading", { name: "Leads are for instance administrators" }).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Export CSV" }).count()).toBe(0);
    expect(await page.getByRole("table").count()).toBe(0);
    await expectAccessible(page);
  });
});
