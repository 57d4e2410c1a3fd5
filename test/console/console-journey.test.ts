import type { Page } from "playwright-core";
import { describe, expect, onTestFinished } from "vitest";
import { eventually, postInbound, telegramSendsTo } from "../channels/channel-helpers.ts";
import { startTelegramApi, telegramTextUpdate } from "../fakes/telegram-api.ts";
import { memberOf, TEST_PASSWORD } from "../harness/accounts.ts";
import {
  consoleTest,
  expectAccessible,
  newPage,
  PHONE,
  runsConsole,
  screenshot,
} from "./console-fixtures.ts";

/**
 * Issue 41's "done when", in one run through the console as its first user lives it: set up,
 * sign in, build an agent on two uploaded files, ask it, review the answer, take over a Telegram
 * conversation whose customer wants a person, reply, resolve, see the spend; then a viewer.
 */
const BOT_TOKEN = "7000000001:AAH-journey-bot-token-of-the-agent";
const telegram = await startTelegramApi({ tokens: [BOT_TOKEN] });
const test = consoleTest({
  env: { TELEGRAM_API_BASE_URL: telegram.baseUrl, CHANNEL_BATCH_DELAY_MS: "200" },
});
test.afterAll(() => telegram.close());

const OWNER = { email: "olga@rotterdambikes.example", name: "Olga", password: TEST_PASSWORD };
const FILES = [
  {
    name: "hours.md",
    mimeType: "text/markdown",
    buffer: Buffer.from(
      "# Opening hours\n\nThe shop opens at nine and closes at six, Monday to Saturday.",
    ),
  },
  {
    name: "repairs.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("Flat tyres are repaired while you wait, in about twenty minutes."),
  },
];
const CHAT_ID = 4242;

/** The path and query of a link the service made (its PUBLIC_URL is not the test's port). */
const onTestServer = (link: string, apiUrl: string) => {
  const url = new URL(link);
  return `${apiUrl}${url.pathname}${url.search}`;
};

const nav = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

/** The API calls a page makes from a click until it is drawn (the session is cached). */
/**
 * The API calls a page makes to show its data: counted from the click until the page's own
 * heading is there and nothing in it is loading. Waiting for any h1 would let the previous
 * page's heading close the count before the new page has asked for anything.
 */
async function apiCallsOf(
  page: Page,
  heading: string,
  open: () => Promise<void>,
): Promise<string[]> {
  const calls: string[] = [];
  const listener = (request: { url(): string }) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/") && url.pathname !== "/api/events") {
      calls.push(`${url.pathname}${url.search}`);
    }
  };
  page.on("request", listener);
  await open();
  await page.getByRole("heading", { name: heading, level: 1, exact: true }).waitFor();
  await page.locator("main .state-loading").first().waitFor({ state: "detached" });
  page.off("request", listener);
  return calls;
}

describe.skipIf(!runsConsole)("the console, from the first start to a resolved handoff", () => {
  test("a team sets up, answers, reviews, takes over and checks the spend", async ({
    app,
    apiUrl,
    browser,
    fake,
  }) => {
    // First-owner setup, through the one-time link the first start prints.
    const page = await newPage(browser, onTestFinished);
    const setupLink = (await app.runtime.services.accounts.setupLink())!;
    await page.goto(onTestServer(setupLink, apiUrl));
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Name").fill(OWNER.name);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    const session = await page.request.get(`${apiUrl}/api/auth/session`);
    const organizationId = ((await session.json()) as { activeOrganizationId: string })
      .activeOrganizationId;
    const granted = await app.admin.admin.grantCredits(organizationId, { amount: 1_000 });
    expect(granted.status).toBe(201);

    // Sign out and in again.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();

    // A datastore with two files uploaded at once, both synched.
    await nav(page, "Knowledge").click();
    await page.getByLabel("Name", { exact: true }).fill("Shop handbook");
    await page.getByRole("button", { name: "Create datastore" }).click();
    await page.getByRole("heading", { name: "Shop handbook", level: 1 }).waitFor();
    await page.getByLabel("Upload files").setInputFiles(FILES);
    for (const file of FILES) {
      const row = page
        .getByRole("row")
        .filter({ has: page.getByRole("rowheader", { name: file.name }) });
      await row.getByText("synched", { exact: true }).waitFor();
    }
    await expectAccessible(page);

    // An agent that answers from it.
    await nav(page, "Agents").click();
    await page.getByRole("link", { name: "Create your first agent" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Rotterdam Bikes help");
    await page.getByLabel("Shop handbook").check();
    await page.getByRole("button", { name: "Create agent" }).click();
    await page.getByRole("heading", { name: "Rotterdam Bikes help", level: 1 }).waitFor();
    const agentId = new URL(page.url()).pathname.split("/")[3]!;

    // The playground streams an answer with its source.
    await page
      .getByRole("navigation", { name: "Agent" })
      .getByRole("link", { name: "Playground" })
      .click();
    fake.script({ chunks: ["We open at nine ", "and close at six."], chunkDelayMs: 300 });
    await page.getByRole("textbox", { name: "Message" }).fill("When do you open?");
    await page.getByRole("button", { name: "Send" }).click();
    const log = page.getByRole("log", { name: "Conversation with the agent" });
    await log.getByText("We open at nine and close at six.").waitFor();
    await log.getByRole("list", { name: "Sources" }).getByText("hours.md").waitFor();

    // The conversation in the inbox, rated there, found in Annotations.
    await page.getByRole("link", { name: "Open in Conversations" }).click();
    const messages = page.getByRole("list", { name: "Messages" }).getByRole("listitem");
    await messages.filter({ hasText: "When do you open?" }).first().waitFor();
    const answer = messages.filter({ hasText: "We open at nine and close at six." });
    await answer.getByRole("list", { name: "Sources" }).getByText("hours.md").waitFor();
    await answer.getByRole("button", { name: "Rate" }).click();
    const rating = answer.getByRole("form", { name: "Rate this answer" });
    await rating.getByLabel("Bad").check();
    await rating.getByLabel("Comment").fill("Say that Sunday is closed.");
    await rating.getByRole("button", { name: "Save rating" }).click();
    await answer.getByText("Rated bad").waitFor();
    await nav(page, "Annotations").click();
    await page.getByRole("row").filter({ hasText: "Say that Sunday is closed." }).waitFor();
    await expectAccessible(page);

    // A Telegram channel; a customer asks there, the agent asks for a person: live in the inbox.
    await page.goto(`${apiUrl}/console/agents/${agentId}/channels`);
    await page.getByLabel("Bot token").fill(BOT_TOKEN);
    await page.getByRole("button", { name: "Connect Telegram" }).click();
    await page.getByText("Active", { exact: true }).waitFor();
    const channel = (
      (await (await page.request.get(`${apiUrl}/api/agents/${agentId}/channels`)).json()) as {
        data: Array<{ id: string; webhookUrl: string }>;
      }
    ).data[0]!;

    await nav(page, "Conversations").click();
    await page.getByRole("heading", { name: "Conversations", level: 1 }).waitFor();
    fake.script({ toolCalls: [{ name: "request_human", arguments: { reason: "a refund" } }] });
    const update = telegramTextUpdate({
      updateId: 1,
      messageId: 1,
      chatId: CHAT_ID,
      from: { id: CHAT_ID, first_name: "Ada" },
      text: "My bike was stolen from your rack, I want my money back",
    });
    const delivered = await postInbound(app, channel, JSON.stringify(update), {
      "x-telegram-bot-api-secret-token": telegram.webhookOf(BOT_TOKEN)!.secret_token!,
    });
    expect(delivered.statusCode).toBe(200);
    // No reload: the conversation comes through the live events.
    const inbox = page.getByRole("list", { name: "Conversations" }).getByRole("listitem");
    const ada = inbox.filter({ hasText: "Ada" });
    await ada.getByText("Human requested", { exact: true }).waitFor();
    await screenshot(page, "journey-inbox");

    // Take over, reply (Telegram receives it), resolve.
    await ada.getByRole("link").first().click();
    await page.getByRole("button", { name: "Take over" }).click();
    const reply = "Hi Ada, Olga here. Sorry! Let me check.";
    await page.getByRole("textbox", { name: "Reply" }).fill(reply);
    await page.getByRole("button", { name: "Send reply" }).click();
    await eventually(() => expect(telegramSendsTo(telegram, CHAT_ID)).toContain(reply));
    await page.getByRole("button", { name: "Resolve" }).click();
    const details = page.getByRole("complementary", { name: "Conversation details" });
    await details.getByText("Resolved", { exact: true }).waitFor();
    await expectAccessible(page);

    // The spend: the usage page's total is the summary's.
    await nav(page, "Usage").click();
    const table = page.getByRole("table", { name: /^Credits by day/ });
    await table.waitFor();
    const today = new Date().toISOString().slice(0, 10);
    const summary = (await (
      await page.request.get(
        `${apiUrl}/api/consumption-events/summary?startDate=${today}&endDate=${today}&groupBy=day`,
      )
    ).json()) as { data: Array<{ totalCreditsCharged: number }> };
    const spent = summary.data.reduce((sum, row) => sum + row.totalCreditsCharged, 0);
    expect(spent).toBeGreaterThan(0);
    await page.getByText(`Total: ${spent}`).waitFor();
    await expectAccessible(page);

    // Each page of the navigation loads its data in at most two API calls.
    for (const [name, heading] of [
      ["Agents", "Agents"],
      ["Knowledge", "Knowledge"],
      ["Conversations", "Conversations"],
      ["Annotations", "Annotations"],
      ["Usage", "Usage"],
      ["Settings", "Organization"],
    ] as const) {
      const calls = await apiCallsOf(page, heading, () => nav(page, name).click());
      expect(calls.length, `${name}: ${calls.join(", ")}`).toBeLessThanOrEqual(2);
    }

    // A viewer reads, and cannot edit.
    const organization = { id: organizationId };
    const viewer = await memberOf(app, organization, "viewer");
    const viewing = await newPage(browser, onTestFinished, PHONE);
    await viewing.goto(`${apiUrl}/console/sign-in`);
    await viewing.getByLabel("Email").fill(viewer.email);
    await viewing.getByLabel("Password").fill(TEST_PASSWORD);
    await viewing.getByRole("button", { name: "Sign in" }).click();
    await viewing.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    await viewing.goto(`${apiUrl}/console/agents/${agentId}/settings`);
    await viewing.getByRole("heading", { name: "Rotterdam Bikes help", level: 1 }).waitFor();
    expect(await viewing.getByRole("button", { name: "Save changes" }).count()).toBe(0);
    await viewing.goto(`${apiUrl}/console/conversations`);
    await viewing.getByRole("heading", { name: "Conversations", level: 1 }).waitFor();
    await expectAccessible(viewing);
  });
});
