import type { Locator, Page } from "playwright-core";
import { describe, expect, onTestFinished } from "vitest";
import { createAgent } from "../harness/agents.ts";
import {
  consoleTest,
  expectAccessible,
  PHONE,
  runsConsole,
  screenshot,
  signedInPage,
} from "./console-fixtures.ts";

const test = consoleTest();

const DAY_MS = 86_400_000;
/** The page's default period: the last 30 UTC days, today included. */
const lastThirtyDays = () => ({
  startDate: new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10),
  endDate: new Date().toISOString().slice(0, 10),
});

/** The number a cell or a sentence shows, whatever the browser's grouping separator. */
const numberIn = (text: string | null) => Number((text ?? "").replace(/[^\d.-]/g, ""));

/** The sum of a summary's groups in micro-credits, as exact as the API's 6 decimals. */
const sumOf = (rows: Array<{ totalCreditsCharged: number }>) =>
  rows.reduce((sum, row) => sum + Math.round(row.totalCreditsCharged * 1e6), 0) / 1e6;

/** The rows of a table's body as their cells' text. */
/** A choice of the "Group by" choices (the "Stack by" group has an Agent and a Model too). */
const groupBy = (page: Page, name: string) =>
  page.getByRole("radiogroup", { name: "Group by" }).getByRole("radio", { name });

async function bodyRows(table: Locator): Promise<string[][]> {
  return table
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.querySelectorAll("th, td")].map((cell) => cell.textContent?.trim() ?? ""),
      ),
    );
}

async function totalShown(page: Page): Promise<number> {
  return numberIn(await page.getByText(/^Total: /).textContent());
}

async function statValue(page: Page, label: string): Promise<number> {
  const stat = page.locator(".stat").filter({ has: page.getByText(label, { exact: true }) });
  return numberIn(await stat.locator(".stat-value").textContent());
}

describe.skipIf(!runsConsole)("the usage page", () => {
  test("shows the balance, the credits by day, agent and model, and the events the API has", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
    agent,
  }) => {
    // Charges made through the API: an answer of the (fake) model, usage reported by an
    // integration for a second agent, and enough small reports for a second page of events.
    const sales = await createAgent(app, org, { name: "Sales" });
    const answered = await api.agents.query(agent.id, { query: "What are your hours?" });
    expect(answered.status).toBe(200);
    for (const [provider, modelName, inputTokens] of [
      ["azure", "gpt-4o", 100_000],
      ["gemini", "gemini-2.5-pro", 40_000],
    ] as const) {
      const reported = await api.usage.increment({
        provider,
        modelName,
        inputTokens,
        outputTokens: 2_000,
        agentId: sales.id,
      });
      expect(reported.status).toBe(200);
    }
    for (let index = 0; index < 50; index += 1) {
      const small = await api.usage.increment({
        provider: "deepseek",
        modelName: "deepseek-chat",
        inputTokens: 1_000,
        feature: "import",
      });
      expect(small.status).toBe(200);
    }

    const { page } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished);
    const calls: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/") && url.pathname !== "/api/auth/session") {
        calls.push(url.pathname);
      }
    });
    await page.goto(`${apiUrl}/console/usage`);
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();

    // The balance, as GET /api/credits/balance has it.
    const balance = (await api.credits.balance()).body;
    expect(balance).toMatchObject({ billingModel: "credits", canRun: true, blockReason: null });
    await page.getByText("Can run", { exact: true }).waitFor();
    expect(await statValue(page, "Credits granted")).toBe(balance.credits.total);
    expect(await statValue(page, "Credits used")).toBe(balance.credits.used);
    expect(await statValue(page, "Credits remaining")).toBe(balance.credits.remaining);

    // Credits by day: the total is the summary's, the table's rows add up to it.
    const range = lastThirtyDays();
    const byDay = (await api.consumptionEvents.summary({ ...range, groupBy: "day" })).body;
    const daysTable = page.getByRole("table", { name: /^Credits by day/ });
    await daysTable.waitFor();
    const total = sumOf(byDay.data);
    expect(total).toBeGreaterThan(0.25);
    expect(await totalShown(page)).toBe(total);
    const dayRows = await bodyRows(daysTable);
    expect(dayRows).toHaveLength(byDay.data.length);
    expect(sumOf(dayRows.map((cells) => ({ totalCreditsCharged: numberIn(cells[1]!) })))).toBe(
      total,
    );
    expect(dayRows.map((cells) => numberIn(cells[4]!))).toEqual(
      byDay.data.map((row) => row.eventCount),
    );
    const chart = page.getByRole("img", { name: /^Bar chart of credits by day, stacked by agent/ });
    await chart.waitFor();
    expect(await chart.getAttribute("aria-label")).toContain(`${total} credits`);
    // Each day's bar split by agent: the parts the API gives with stackBy, in the table too.
    const stackedByAgent = (
      await app.api.inject({
        url: `/api/consumption-events/summary?startDate=${range.startDate}&endDate=${range.endDate}&groupBy=day&stackBy=agent`,
        headers: org.auth,
      })
    ).json() as {
      data: Array<{ stacks: Array<{ agentName: string | null; totalCreditsCharged: number }> }>;
    };
    // Each day's cell lists its agents' parts, as the list items' texts run together.
    expect(dayRows.map((cells) => cells[5])).toEqual(
      stackedByAgent.data.map((row) =>
        row.stacks
          .map((stack) => `${stack.agentName ?? "No agent"}: ${stack.totalCreditsCharged}`)
          .join(""),
      ),
    );
    await page
      .getByRole("radiogroup", { name: "Stack by" })
      .getByRole("radio", { name: "Model" })
      .check();
    await page
      .getByRole("img", { name: /^Bar chart of credits by day, stacked by model/ })
      .waitFor();
    const byModelCells = (await bodyRows(daysTable)).map((cells) => cells[5]).join("");
    for (const model of ["gpt-4o", "gemini-2.5-pro", "deepseek-chat"]) {
      expect(byModelCells).toContain(`${model}: `);
    }
    expect(new URL(page.url()).searchParams.get("stackBy")).toBe("model");
    // The page loaded with two calls (the balance and the summary), and one more per stacking.
    expect(calls.sort()).toEqual([
      "/api/consumption-events/summary",
      "/api/consumption-events/summary",
      "/api/credits/balance",
    ]);
    await expectAccessible(page);
    await screenshot(page, "usage");

    // By agent, then by model: the API's groups, in its order, with the same total.
    await groupBy(page, "Agent").check();
    const agentsTable = page.getByRole("table", { name: /^Credits by agent/ });
    await agentsTable.waitFor();
    const byAgent = (await api.consumptionEvents.summary({ ...range, groupBy: "agent" })).body;
    expect((await bodyRows(agentsTable)).map((cells) => [cells[0], numberIn(cells[1]!)])).toEqual(
      byAgent.data.map((row) => [
        row.groupKey === null ? "No agent" : row.agentName,
        row.totalCreditsCharged,
      ]),
    );
    expect(byAgent.data.map((row) => row.agentName)).toEqual(["Sales", null, "Support"]);
    expect(await totalShown(page)).toBe(total);
    expect(new URL(page.url()).searchParams.get("groupBy")).toBe("agent");
    await expectAccessible(page);

    await groupBy(page, "Model").check();
    const modelsTable = page.getByRole("table", { name: /^Credits by model/ });
    await modelsTable.waitFor();
    const byModel = (await api.consumptionEvents.summary({ ...range, groupBy: "model" })).body;
    expect((await bodyRows(modelsTable)).map((cells) => [cells[0], numberIn(cells[1]!)])).toEqual(
      byModel.data.map((row) => [row.groupKey, row.totalCreditsCharged]),
    );
    expect(byModel.data.map((row) => row.groupKey)).toEqual(
      expect.arrayContaining(["gpt-4o", "gemini-2.5-pro", "deepseek-chat"]),
    );
    expect(await totalShown(page)).toBe(total);

    await groupBy(page, "Feature").check();
    const featuresTable = page.getByRole("table", { name: /^Credits by feature/ });
    await featuresTable.waitFor();
    expect((await bodyRows(featuresTable)).map((cells) => cells[0]).sort()).toEqual([
      "agent_run",
      "chat",
      "import",
    ]);

    // The events of the period, 50 a page, newest first.
    await page.getByRole("button", { name: "Show events" }).click();
    const eventsTable = page.getByRole("table", { name: "Consumption events, newest first" });
    await eventsTable.waitFor();
    const events = (await api.consumptionEvents.list({ ...range, page: 1, limit: 50 })).body;
    expect(events.pagination.total).toBe(53);
    await page.getByText("Page 1 of 2 · 53 events").waitFor();
    const firstPage = await bodyRows(eventsTable);
    expect(firstPage).toHaveLength(50);
    expect(firstPage.map((cells) => numberIn(cells[6]!))).toEqual(
      events.data.map((event) => event.creditsCharged),
    );
    await expectAccessible(page);
    const previous = page.getByRole("button", { name: "Previous" });
    expect(await previous.isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Page 2 of 2 · 53 events").waitFor();
    const secondPage = await bodyRows(eventsTable);
    expect(secondPage).toHaveLength(3);
    // The oldest: the answer of Support, with its conversation.
    expect(secondPage.at(-1)).toEqual(
      expect.arrayContaining(["Support", "chat", "Open", expect.stringContaining("gpt-4o-mini")]),
    );
    expect(await page.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
    await previous.click();
    await page.getByText("Page 1 of 2 · 53 events").waitFor();

    // The period is kept in the address: a range without the charges has none.
    await page.goto(`${apiUrl}/console/usage?from=2020-01-01&to=2020-01-31&groupBy=model`);
    await page.getByText("No credits used in this period").waitFor();
    expect(await page.getByLabel("From").inputValue()).toBe("2020-01-01");
    expect(await groupBy(page, "Model").isChecked()).toBe(true);
  });

  test("fits a phone's screen, chart and tables included", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const reported = await api.usage.increment({
      provider: "azure",
      modelName: "gpt-4o-mini",
      inputTokens: 10_000,
    });
    expect(reported.status).toBe(200);
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished, PHONE);
    await page.goto(`${apiUrl}/console/usage`);
    await page.getByRole("img", { name: /^Bar chart of credits by day/ }).waitFor();
    await page.getByRole("button", { name: "Show events" }).click();
    await page.getByRole("table", { name: "Consumption events, newest first" }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(page);
  });

  test("an organization without usage: the free plan, and empty charts and events", async ({
    app,
    apiUrl,
    browser,
  }) => {
    const quiet = await app.createOrganization("Quiet");
    const { page } = await signedInPage(browser, app, apiUrl, quiet, "viewer", onTestFinished);
    await page.goto(`${apiUrl}/console/usage`);
    await page.getByText("No credits used in this period").waitFor();
    const balance = (await app.client(quiet.auth).credits.balance()).body;
    expect(balance.freePlan).toEqual({ included: 5, used: 0, remaining: 5 });
    await page.getByText("Can run", { exact: true }).waitFor();
    expect(await page.locator(".stat", { hasText: "Free plan messages left" }).textContent()).toBe(
      "Free plan messages left5 of 5",
    );
    expect(await page.getByRole("img").count()).toBe(0);
    await page.getByRole("button", { name: "Show events" }).click();
    await page.getByText("No consumption events in this period").waitFor();
    await expectAccessible(page);
  });

  test("says in words why agents cannot run", async ({ app, apiUrl, browser }) => {
    const spent = await app.createOrganization("Spent");
    const client = app.client(spent.auth);
    for (let message = 0; message < 5; message += 1) {
      const used = await client.usage.increment({ provider: "azure", modelName: "gpt-4o-mini" });
      expect(used.status).toBe(200);
    }
    const balance = (await client.credits.balance()).body;
    expect(balance).toMatchObject({ canRun: false, blockReason: "free_plan_limit" });
    const { page } = await signedInPage(browser, app, apiUrl, spent, "owner", onTestFinished);
    await page.goto(`${apiUrl}/console/usage`);
    await page.getByText("Cannot run", { exact: true }).waitFor();
    await page.getByText("The free plan's included agent messages are used up.").waitFor();
    expect(await page.locator(".stat", { hasText: "Free plan messages left" }).textContent()).toBe(
      "Free plan messages left0 of 5",
    );
    await expectAccessible(page);
  });

  test("shows the API's refusal of a period that ends before it starts", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished);
    await page.goto(`${apiUrl}/console/usage?from=2026-02-10&to=2026-02-01`);
    await page.getByRole("alert").getByText("endDate must not be before startDate").waitFor();
    expect(await page.getByLabel("To").inputValue()).toBe("2026-02-01");
    await expectAccessible(page);
    // Choosing a valid end shows the numbers again.
    await page.getByLabel("To").fill("2026-02-20");
    await page.getByText("No credits used in this period").waitFor();
  });
});
