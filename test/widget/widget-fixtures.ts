import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { memberOf } from "../harness/accounts.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../harness/timeouts.ts";
import { hasChromium, launchChromium, startHostSite } from "./browser.ts";

/** Playwright waits up to this long for an element: generous, and a clear error before the test times out. */
const BROWSER_WAIT_MS = TEST_TIMEOUT_MS / 2;

/**
 * `appTest` with a Chromium (`browser`), the API listening on 127.0.0.1 (`apiUrl`) and a
 * customer's site on another port (`host`), all started once per file.
 */
export function widgetTest(options: Parameters<typeof appTest>[0] = {}) {
  return appTest({
    ...options,
    // Every test's browser context is a new visitor; all of them come from 127.0.0.1.
    env: { PUBLIC_CHAT_IP_RATE_LIMIT_PER_MINUTE: "1000", ...options.env },
  })
    .extend("browser", { scope: "file" }, async ({ app }, { onCleanup }) => {
      void app;
      const browser: Browser = await launchChromium();
      onCleanup(() => browser.close());
      return browser;
    })
    .extend("apiUrl", { scope: "file" }, ({ app }) => app.listen("api"))
    .extend("host", { scope: "file" }, async ({ apiUrl }, { onCleanup }) => {
      const site = await startHostSite(apiUrl);
      onCleanup(() => site.close());
      return site;
    });
}

/** A new visitor: a browser context with its own localStorage, closed after the test. */
export async function visitor(
  browser: Browser,
  onTestFinished: (fn: () => Promise<void>) => void,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(BROWSER_WAIT_MS);
  onTestFinished(() => context.close());
  return { context, page: await context.newPage() };
}

/**
 * Waits until the element of the widget with this accessible name (aria-label) has the focus.
 * A string: the test's TypeScript has no DOM types, the page's JavaScript runs it.
 */
export async function waitForFocus(page: Page, label: string): Promise<void> {
  await page.waitForFunction(`(() => {
    const host = document.querySelector("[data-agentdesk-widget]");
    const active = document.activeElement === host ? host.shadowRoot.activeElement : null;
    return active !== null && active.getAttribute("aria-label") === ${JSON.stringify(label)};
  })()`);
}

/** The value of the widget's "Message" textarea once it is not empty. */
export async function waitForMessageText(page: Page): Promise<string> {
  const handle = await page.waitForFunction(`(() => {
    const host = document.querySelector("[data-agentdesk-widget]");
    const value = host && host.shadowRoot.querySelector("textarea").value;
    return value || null;
  })()`);
  return (await handle.jsonValue()) as string;
}

/**
 * Waits until the answer on screen is finished: its sources and feedback are shown, and the
 * widget takes the next question (it ignores one sent while an answer is still arriving). Call it
 * once the answer's text is visible, so the answer is there to wait for.
 */
export async function answerFinished(log: Locator): Promise<void> {
  await log.locator('[aria-busy="true"]').waitFor({ state: "detached" });
}

/**
 * A person of the organization (a member named "member", signed in) replies in the conversation
 * the widget on `page` keeps for `agentId`; resolves once the API stored the reply (201).
 */
export async function operatorReplies(
  page: Page,
  app: TestApp,
  org: Pick<TestOrganization, "id">,
  agentId: string,
  text: string,
): Promise<void> {
  const conversationId = (await page.evaluate(
    `localStorage.getItem("agentdesk:${agentId}:conversation")`,
  )) as string;
  const operator = await memberOf(app, org, "member", `sam-${Date.now()}@example.com`);
  const reply = await app.api.inject({
    method: "POST",
    url: `/api/conversations/${conversationId}/messages`,
    headers: operator.headers,
    payload: { text },
  });
  if (reply.statusCode !== 201)
    throw new Error(`operator reply: ${reply.statusCode} ${reply.body}`);
}

export { hasChromium };
