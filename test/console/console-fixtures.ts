import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import type { Role } from "../../src/domain/accounts/permissions.ts";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../harness/timeouts.ts";
import { hasChromium, launchChromium } from "../widget/browser.ts";

/** Playwright waits up to this long for an element: a clear error before the test times out. */
const BROWSER_WAIT_MS = TEST_TIMEOUT_MS / 2;

/**
 * The console's pages do not depend on the database: they run once, on PGlite, not again on
 * PostgreSQL (the API they call is tested on both).
 */
export const runsConsole = hasChromium && process.env.AGENTDESK_TEST_DB === "pglite";

/**
 * `appTest` with a Chromium (`browser`) and the API listening on 127.0.0.1 (`apiUrl`, the
 * console at `${apiUrl}/console`), started once per file.
 */
export function consoleTest(options: Parameters<typeof appTest>[0] = {}) {
  return appTest(options)
    .extend("browser", { scope: "file" }, async ({ app }, { onCleanup }) => {
      void app;
      const browser: Browser = await launchChromium();
      onCleanup(() => browser.close());
      return browser;
    })
    .extend("apiUrl", { scope: "file" }, ({ app }) => app.listen("api"));
}

type Viewport = { width: number; height: number };
const DESKTOP: Viewport = { width: 1280, height: 800 };
export const PHONE: Viewport = { width: 375, height: 740 };

/** A browser tab of its own (new cookies), closed after the test. */
export async function newPage(
  browser: Browser,
  onTestFinished: (fn: () => Promise<void>) => void,
  viewport: Viewport = DESKTOP,
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(BROWSER_WAIT_MS);
  onTestFinished(() => context.close());
  return context.newPage();
}

/**
 * A person who is `role` in `org`, signed in (through the API: the sign-in page has its own
 * test), in a new tab that holds their session cookie.
 */
export async function signedInPage(
  browser: Browser,
  app: TestApp,
  apiUrl: string,
  org: Pick<TestOrganization, "id">,
  role: Role,
  onTestFinished: (fn: () => Promise<void>) => void,
  viewport: Viewport = DESKTOP,
): Promise<{ page: Page; user: SignedIn }> {
  const user = await memberOf(app, org, role);
  const page = await newPage(browser, onTestFinished, viewport);
  const [name, value] = user.headers.cookie.split("=") as [string, string];
  await page.context().addCookies([{ name, value, url: apiUrl, httpOnly: true, sameSite: "Lax" }]);
  // The person works in `org` (their session's active organization may be another one).
  const switched = await app.api.inject({
    method: "PATCH",
    url: "/api/auth/session",
    headers: user.headers,
    payload: { activeOrganizationId: org.id },
  });
  if (switched.statusCode !== 200) throw new Error(`switch organization: ${switched.body}`);
  return { page, user };
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

type AxeViolation = { id: string; impact: string | null; help: string; nodes: unknown[] };

/**
 * axe-core's serious and critical violations on the page as it is now (WCAG 2 A and AA rules).
 * The script is evaluated through the DevTools protocol, which the console's CSP does not block.
 */
async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe
    .run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })
    .then((result) => result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.join(" ")),
    })))`)) as AxeViolation[];
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.help}): ${violation.nodes.join(", ")}`);
}

/** Fails the test with axe-core's findings when the page has a serious or critical violation. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await accessibilityViolations(page)).toEqual([]);
}

/**
 * With SCREENSHOT_DIR set (`npm run screenshots` sets it to docs/), saves what the page shows as
 * `<SCREENSHOT_DIR>/console/<name>.png`: the pictures of docs/console.md.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const directory = process.env.SCREENSHOT_DIR;
  if (!directory) return;
  mkdirSync(join(directory, "console"), { recursive: true });
  await page.screenshot({ path: join(directory, "console", `${name}.png`), fullPage: false });
}
