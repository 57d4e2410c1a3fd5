import { afterAll, describe, expect, onTestFinished } from "vitest";
import { BOT_TOKEN, SLACK_TOKEN } from "../channels/channel-helpers.ts";
import { startSlackApi } from "../fakes/slack-api.ts";
import { startTelegramApi } from "../fakes/telegram-api.ts";
import { createAgent } from "../harness/agents.ts";
import {
  consoleTest,
  expectAccessible,
  PHONE,
  runsConsole,
  screenshot,
  signedInPage,
} from "./console-fixtures.ts";

/** The fake platforms must be listening before the app starts: their URLs are in its env. */
const [telegram, slack] = await Promise.all([
  startTelegramApi({ tokens: [BOT_TOKEN] }),
  startSlackApi({ botTokens: [SLACK_TOKEN] }),
]);
afterAll(() => Promise.all([telegram.close(), slack.close()]));

const PUBLIC_URL = "https://agents.example.com";
const test = consoleTest({
  env: { TELEGRAM_API_BASE_URL: telegram.baseUrl, SLACK_API_BASE_URL: slack.baseUrl, PUBLIC_URL },
});

type ChannelView = { id: string; name: string; enabled: boolean; webhookUrl: string };

describe.skipIf(!runsConsole)("an agent's channels", () => {
  test("an admin connects Telegram, sees the webhook URL and status, disables and deletes it", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const agent = await createAgent(app, org, { name: "Bike desk" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "admin", onTestFinished);
    await page.goto(`${apiUrl}/console/agents/${agent.id}/channels`);
    await page.getByRole("heading", { name: "Channels", level: 2 }).waitFor();
    await page.getByText("No channels yet").waitFor();
    await expectAccessible(page);

    // A token Telegram does not know: the API's refusal, nothing stored.
    await page.getByLabel("Bot token").fill("123:not-a-real-token");
    await page.getByRole("button", { name: "Connect Telegram" }).click();
    await page
      .getByRole("alert")
      .getByText(/Telegram refused/)
      .waitFor();

    await page.getByLabel("Bot token").fill(BOT_TOKEN);
    await page.getByLabel("Channel name").fill("Rotterdam bot");
    await page.getByRole("button", { name: "Connect Telegram" }).click();
    const card = page.getByRole("article", { name: "Rotterdam bot" });
    await card.getByText("Active").waitFor();
    const listed = await app.api.inject({
      method: "GET",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
    });
    const [channel] = (listed.json() as { data: ChannelView[] }).data;
    expect(channel).toMatchObject({ name: "Rotterdam bot", enabled: true });
    expect(channel!.webhookUrl).toBe(`${PUBLIC_URL}/channels/telegram/${channel!.id}`);
    expect(telegram.webhookOf(BOT_TOKEN)?.url).toBe(channel!.webhookUrl);
    await card.getByText(channel!.webhookUrl, { exact: true }).waitFor();
    await card.getByRole("button", { name: "Copy webhook URL" }).waitFor();
    // The token is write-only: only its masked form is shown.
    await card.getByText(`••••${BOT_TOKEN.slice(-4)}`).waitFor();
    expect(await page.getByText(BOT_TOKEN, { exact: true }).count()).toBe(0);
    await card.getByText("None yet: the platform has not reached the webhook URL.").waitFor();
    await expectAccessible(page);
    await page.evaluate("window.scrollTo(0, 0)");
    await screenshot(page, "agents-channels");

    // Checking again calls Telegram again (getMe, setWebhook) and keeps the channel active.
    telegram.calls.length = 0;
    await card.getByRole("button", { name: "Check the credentials again" }).click();
    await expect.poll(() => telegram.callsTo("setWebhook").length).toBe(1);
    await card.getByText("Active").waitFor();

    await card.getByRole("button", { name: "Disable" }).click();
    await card.getByText("Disabled", { exact: true }).waitFor();
    await card.getByRole("button", { name: "Enable" }).waitFor();
    const disabled = await app.api.inject({
      method: "GET",
      url: `/api/channels/${channel!.id}`,
      headers: org.auth,
    });
    expect(disabled.json()).toMatchObject({ enabled: false });

    await card.getByRole("button", { name: "Delete" }).click();
    await page
      .getByRole("dialog", { name: "Delete Rotterdam bot?" })
      .getByRole("button", { name: "Delete channel" })
      .click();
    await page.getByText("No channels yet").waitFor();
    const after = await api.agents.get(agent.id);
    expect(after.status).toBe(200);
    expect(telegram.webhookOf(BOT_TOKEN)?.url ?? "").toBe("");
  });

  test("a WhatsApp channel shows the verify token to paste into Meta's settings", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const agent = await createAgent(app, org, { name: "WhatsApp desk" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "owner", onTestFinished, PHONE);
    await page.goto(`${apiUrl}/console/agents/${agent.id}/channels`);
    await page.getByLabel("WhatsApp").check();
    await page.getByLabel("Phone number ID").fill("106540352242922");
    await page.getByLabel("Access token").fill("EAAG-test-whatsapp-access-token");
    await page.getByLabel("App secret").fill("4f1c-test-app-secret");
    await page.getByRole("button", { name: "Connect WhatsApp" }).click();
    const card = page.getByRole("article", { name: "WhatsApp of WhatsApp desk" });
    await card.getByRole("button", { name: "Copy verify token" }).waitFor();
    const listed = await app.api.inject({
      method: "GET",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
    });
    const [channel] = (listed.json() as { data: Array<{ config: Record<string, string> }> }).data;
    await card.getByText(channel!.config.verifyToken!, { exact: true }).waitFor();
    await card.getByText("106540352242922", { exact: true }).waitFor();
    expect(await page.getByText("EAAG-test-whatsapp-access-token").count()).toBe(0);
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(page);
  });

  test("a Slack app connects with its bot token and signing secret", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const agent = await createAgent(app, org, { name: "Slack desk" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "admin", onTestFinished);
    await page.goto(`${apiUrl}/console/agents/${agent.id}/channels`);
    await page.getByLabel("Slack").check();
    await page.getByLabel("Bot User OAuth Token").fill(SLACK_TOKEN);
    await page.getByLabel("Signing secret").fill("8f7e-test-signing-secret");
    await page.getByRole("button", { name: "Connect Slack" }).click();
    const card = page.getByRole("article", { name: "Slack of Slack desk" });
    await card.getByText(/^https:\/\/agents\.example\.com\/channels\/slack\//).waitFor();
    await card.getByText("Event Subscriptions", { exact: false }).waitFor();
    expect(slack.callsTo("auth.test")).toHaveLength(1);
    expect(await page.getByText("8f7e-test-signing-secret").count()).toBe(0);
    await expectAccessible(page);
  });

  test("a member sees the channels without the controls that need an admin", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const agent = await createAgent(app, org, { name: "Member view" });
    const created = await app.api.inject({
      method: "POST",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
      payload: { type: "telegram", name: "Seen by members", config: { botToken: BOT_TOKEN } },
    });
    expect(created.statusCode).toBe(201);
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/agents/${agent.id}/channels`);
    const card = page.getByRole("article", { name: "Seen by members" });
    await card.getByRole("button", { name: "Copy webhook URL" }).waitFor();
    await page
      .getByText("Connecting and changing channels needs the admin or owner role")
      .waitFor();
    expect(await page.getByRole("button", { name: /Connect|Disable|Delete/ }).count()).toBe(0);
    expect(await page.getByLabel("Bot token").count()).toBe(0);
    await expectAccessible(page);
  });
});
