import { gzipSync } from "node:zlib";
import { describe, expect, onTestFinished } from "vitest";
import { TEST_PASSWORD } from "../harness/accounts.ts";
import {
  consoleTest,
  expectAccessible,
  newPage,
  PHONE,
  runsConsole,
  screenshot,
  signedInPage,
} from "./console-fixtures.ts";

const test = consoleTest();

/** The ceiling of the issue: what a first visit downloads before the page can draw. */
const INITIAL_JAVASCRIPT_GZIP_BYTES = 300 * 1024;

const NAVIGATION = [
  "Agents",
  "Knowledge",
  "Conversations",
  "Annotations",
  "Usage",
  "Leads",
  "Settings",
];

describe("serving the console", () => {
  test("/ leads to the console, whose page is served with a strict CSP", async ({ app }) => {
    const root = await app.api.inject({ url: "/" });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe("/console");

    for (const url of ["/console", "/console/", "/console/conversations/abc?agentId=x"]) {
      const page = await app.api.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      const csp = String(page.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(page.headers["cache-control"]).toBe("no-cache");
      // Every script is a file of the service: the CSP allows no inline script.
      const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        expect(attributes).toMatch(/src="\/console\/assets\/main-[\w-]+\.js"/);
        expect(body).toBe("");
      }
      expect(page.body).not.toMatch(/https?:\/\//);
    }
  });

  test("assets are compressed, cached for a year and revalidated by ETag", async ({ app }) => {
    const page = (await app.api.inject({ url: "/console" })).body;
    const script = page.match(/src="(\/console\/assets\/main-[\w-]+\.js)"/)![1]!;
    const first = await app.api.inject({ url: script, headers: { "accept-encoding": "gzip" } });
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(first.headers["content-encoding"]).toBe("gzip");
    expect(first.headers["cache-control"]).toContain("immutable");
    const again = await app.api.inject({
      url: script,
      headers: { "if-none-match": String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const missing = await app.api.inject({ url: "/console/assets/nothing-here.js" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ type: "NOT_FOUND" });
  });

  test(`the first visit downloads at most ${INITIAL_JAVASCRIPT_GZIP_BYTES / 1024} KB of JavaScript (gzip)`, async ({
    app,
  }) => {
    const page = (await app.api.inject({ url: "/console" })).body;
    const entry = page.match(/src="\/console\/assets\/(main-[\w-]+\.js)"/)![1]!;
    // The entry and what it imports statically; the areas' chunks load when opened.
    const seen = new Set<string>();
    const pending = [entry];
    let gzipBytes = 0;
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      const file = await app.api.inject({ url: `/console/assets/${name}` });
      expect(file.statusCode, name).toBe(200);
      gzipBytes += gzipSync(file.rawPayload).length;
      const source = file.body.replace(/import\(\s*"[^"]+"\s*\)/g, "");
      for (const [, imported] of source.matchAll(/(?:from|import)\s*"\.\/([\w-]+\.js)"/g)) {
        pending.push(imported!);
      }
    }
    expect(seen.size).toBeGreaterThan(1);
    expect(gzipBytes).toBeLessThanOrEqual(INITIAL_JAVASCRIPT_GZIP_BYTES);
  });
});

describe.skipIf(!runsConsole)("signing in", () => {
  test("a wrong password is refused; the right one opens the console; sign out ends it", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const { user } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    const page = await newPage(browser, onTestFinished);
    await page.goto(`${apiUrl}/console/agents`);
    // Not signed in: the sign-in page, and back to the page asked for after.
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "sign-in");

    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").getByText("The e-mail or the password is wrong").waitFor();

    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/console/agents");
    const navigation = page.getByRole("navigation", { name: "Main" });
    for (const name of NAVIGATION) {
      await navigation.getByRole("link", { name, exact: true }).waitFor();
    }
    await expectAccessible(page);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.goto(`${apiUrl}/console/usage`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
  });

  test("the navigation fits a phone's screen", async ({ app, apiUrl, browser, org }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished, PHONE);
    await page.goto(`${apiUrl}/console`);
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    const width = await page.evaluate("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
  });

  test("an unknown console path says so inside the frame", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished);
    await page.goto(`${apiUrl}/console/no-such-page`);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Usage" })
      .click();
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();
  });
});
