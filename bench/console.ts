import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { chromium, type Page } from "playwright-core";
import { createRuntime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import { formatTable } from "./lib/load.ts";
import { buildIfStale } from "./lib/service-processes.ts";

/**
 * npm run bench -- console [--rounds=5] [--conversations=500]
 * How soon each console page is usable after a navigation, measured in Debian's Chromium with
 * the Performance API against the service on 127.0.0.1 (embedded database, as `npm start`).
 * Usable: the page's own heading is drawn and no part of it still says it is loading, noted by a
 * MutationObserver in the page the moment it happens (Playwright's own waiting polls, up to
 * 500 ms apart, and would be measured with it):
 * - `first`: a new browser profile opens the page's URL (nothing cached): from the navigation's
 *   start (performance.timeOrigin) until usable;
 * - `again`: the same URL opened again (scripts and styles from the browser's cache);
 * - `in app`: from a click on the page's navigation link on another page until it is usable.
 * An organization is seeded through the API with agents, a datastore, `conversations`
 * conversations (the agents' offline answers: no model) and their charges.
 */
const CHROMIUM = "/usr/bin/chromium";
const PASSWORD = "bench password 1234";
/** Each page's heading: Settings opens on its Organization page. */
const HEADINGS: Record<string, string> = { Settings: "Organization" };

/**
 * Evaluated in every document before its scripts (through the DevTools protocol, which the
 * console's CSP does not govern): notes `performance.now()` when the expected heading is drawn
 * with no loading state in the page. A page opened by URL expects the heading its path names.
 */
const OBSERVER = `(() => {
  const headings = ${JSON.stringify({
    agents: "Agents",
    knowledge: "Knowledge",
    conversations: "Conversations",
    annotations: "Annotations",
    usage: "Usage",
    leads: "Leads",
    settings: "Organization",
  })};
  window.__expected = headings[location.pathname.split("/")[2]] ?? null;
  window.__usableAt = null;
  const check = () => {
    if (window.__usableAt !== null || window.__expected === null) return;
    const heading = document.querySelector("main h1");
    if (heading && heading.textContent === window.__expected &&
        !document.querySelector("main .state-loading")) {
      window.__usableAt = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
})()`;

const PAGES = [
  "Agents",
  "Knowledge",
  "Conversations",
  "Annotations",
  "Usage",
  "Leads",
  "Settings",
] as const;

/** Appends a sample to the page's list. */
function record(samples: Record<string, number[]>, title: string, value: number): void {
  samples[title] = [...(samples[title] ?? []), value];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

function option(args: string[], name: string, fallback: number): number {
  const found = args.find((arg) => arg.startsWith(`--${name}=`));
  return found ? Number(found.split("=")[1]) : fallback;
}

async function startService(dataDir: string) {
  const runtime = await createRuntime({
    config: parseConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, BOOTSTRAP_DEFAULT_ORG: "false" }),
    logger: pino({ level: "silent" }),
    role: "all",
  });
  await runtime.api!.listen({ host: "127.0.0.1", port: 0 });
  const { port } = runtime.api!.server.address() as AddressInfo;
  return { runtime, base: `http://127.0.0.1:${port}` };
}

/** The first owner, made through the setup link as a person would; their session cookie. */
async function firstOwner(
  runtime: Awaited<ReturnType<typeof startService>>["runtime"],
  base: string,
) {
  const link = await runtime.services.accounts.setupLink();
  if (!link) throw new Error("no setup link: the database already has an owner");
  const token = new URL(link).searchParams.get("token")!;
  const response = await fetch(`${base}/api/auth/setup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ token, email: "owner@example.com", name: "Owner", password: PASSWORD }),
  });
  if (response.status !== 200)
    throw new Error(`setup: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie()[0]!.split(";")[0]!;
  return { cookie, email: "owner@example.com" };
}

/** Agents, a datastore, conversations and their charges, through the API with a key. */
async function seed(
  service: Awaited<ReturnType<typeof startService>>,
  cookie: string,
  conversations: number,
) {
  const { runtime, base } = service;
  const asOwner = { cookie, origin: base, "content-type": "application/json" };
  const session = (await (
    await fetch(`${base}/api/auth/session`, { headers: asOwner })
  ).json()) as {
    activeOrganizationId: string;
  };
  await runtime.services.credits.grant(session.activeOrganizationId, { amount: 100_000 });
  const created = await fetch(`${base}/api/api-keys`, {
    method: "POST",
    headers: asOwner,
    body: JSON.stringify({ name: "bench" }),
  });
  const { key } = (await created.json()) as { key: string };
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (response.status >= 300) {
      throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    }
    return response.json() as Promise<Record<string, unknown>>;
  };
  const agents: string[] = [];
  for (const name of ["Support", "Sales", "Billing"]) {
    const agent = await call("POST", "/api/agents", { name, modelName: "gpt_4o_mini" });
    agents.push(agent.id as string);
  }
  await call("POST", "/api/datastores", { name: "Handbook" });
  for (let index = 0; index < conversations; index += 1) {
    await call("POST", `/api/agents/${agents[index % agents.length]}/query`, {
      query: `Question ${index}: when do you open?`,
      channel: "api",
    });
  }
}

/** Runs `action`, then waits until the page's observer has noted it usable; its time. */
async function usableAfter(page: Page, action: () => Promise<unknown>): Promise<number> {
  await action();
  const deadline = Date.now() + 30_000;
  for (;;) {
    const at = (await page.evaluate("window.__usableAt")) as number | null;
    if (at !== null) return at;
    if (Date.now() > deadline) throw new Error(`${page.url()} was not usable within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function run(args: string[]): Promise<void> {
  const rounds = option(args, "rounds", 5);
  const conversations = option(args, "conversations", 500);
  buildIfStale();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "agentdesk-console-bench-"));
  const service = await startService(dataDir);
  const { runtime, base } = service;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const owner = await firstOwner(runtime, base);
    await seed(service, owner.cookie, conversations);
    const [name, value] = owner.cookie.split("=") as [string, string];
    const cookies = [{ name, value, url: base, httpOnly: true, sameSite: "Lax" as const }];
    const first: Record<string, number[]> = {};
    const again: Record<string, number[]> = {};
    const inApp: Record<string, number[]> = {};
    for (let round = 0; round < rounds; round += 1) {
      for (const title of PAGES) {
        const url = `${base}/console/${title.toLowerCase()}`;
        // A new profile: nothing cached.
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addCookies(cookies);
        await context.addInitScript(OBSERVER);
        const page = await context.newPage();
        record(first, title, await usableAfter(page, () => page.goto(url)));
        record(again, title, await usableAfter(page, () => page.goto(url)));
        // From another page of the console, by its navigation link.
        const other = title === "Agents" ? "Usage" : "Agents";
        await usableAfter(page, () => page.goto(`${base}/console/${other.toLowerCase()}`));
        const heading = HEADINGS[title] ?? title;
        const before = (await page.evaluate(
          `window.__usableAt = null; window.__expected = ${JSON.stringify(heading)}; performance.now()`,
        )) as number;
        const link = page
          .getByRole("navigation", { name: "Main" })
          .getByRole("link", { name: title });
        record(inApp, title, (await usableAfter(page, () => link.click())) - before);
        await context.close();
      }
    }
    const rows = PAGES.map((title) => ({
      page: title,
      "first ms (median)": Math.round(median(first[title]!)),
      "first ms (max)": Math.round(Math.max(...first[title]!)),
      "again ms (median)": Math.round(median(again[title]!)),
      "in app ms (median)": Math.round(median(inApp[title]!)),
      "in app ms (max)": Math.round(Math.max(...inApp[title]!)),
    }));
    process.stdout.write(
      `console usable after navigation: ${rounds} rounds, ${conversations} conversations, ` +
        `load ${os
          .loadavg()
          .map((load) => load.toFixed(2))
          .join(" ")}\n${formatTable(rows)}\n`,
    );
  } finally {
    await browser.close();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
