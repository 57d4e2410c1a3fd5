import type { Page } from "playwright-core";
import { describe, expect, onTestFinished } from "vitest";
import { eventually } from "../channels/channel-helpers.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import type { Untyped } from "../harness/client.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import {
  consoleTest,
  expectAccessible,
  PHONE,
  runsConsole,
  screenshot,
  signedInPage,
} from "./console-fixtures.ts";

const test = consoleTest();

const REFUNDS = [
  "# Refund policy",
  "",
  "Refunds are accepted within 30 days of delivery. The money returns to the original payment method within five business days.",
].join("\n");

let agentId: string;
test.beforeAll(async ({ app, org }) => {
  const datastore = await createDatastore(app, org, { name: "Help centre" });
  const datasource = await addFile(app, org, datastore.id, {
    fileName: "refunds.md",
    contentType: "text/markdown",
    content: REFUNDS,
  });
  expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
  const created = await app
    .client(org.auth)
    .agents.create({ name: "Refund desk", modelName: "gpt_4o_mini", datastoreIds: [datastore.id] });
  agentId = created.body.id;
});

type Contact = { firstName?: string; lastName?: string; email?: string };

/** A conversation of the agent: the customer asks, the fake model answers. */
async function ask(
  app: TestApp,
  org: TestOrganization,
  query: string,
  contact?: Contact,
): Promise<string> {
  const response = await app.client(org.auth).agents.query(agentId, {
    query,
    ...(contact ? { contact } : {}),
  });
  expect(response.status, response.text).toBe(200);
  return response.body.conversationId;
}

const conversationOf = async (app: TestApp, org: TestOrganization, id: string) =>
  (await app.client(org.auth).conversations.get(id, { agentId })).body as Untyped;

const openConversation = (page: Page, apiUrl: string, id: string) =>
  page.goto(`${apiUrl}/console/conversations/${id}?agentId=${agentId}`);

describe.skipIf(!runsConsole)("a conversation", () => {
  test("shows its messages with sources; Take over, Send reply, Hand back to AI, Resolve", async ({
    app,
    apiUrl,
    browser,
    org,
    fake,
  }) => {
    fake.script({ text: "Within 30 days of delivery.\n\nThe money returns   in five days." });
    const id = await ask(app, org, "Within how many days are refunds accepted?", {
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
    });
    const { page, user } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await openConversation(page, apiUrl, id);
    await page.getByRole("heading", { name: "Conversation with Ada Lovelace", level: 1 }).waitFor();

    const messages = page.getByRole("list", { name: "Messages" }).getByRole("listitem");
    await messages.first().waitFor();
    const question = messages.filter({ hasText: "Within how many days are refunds accepted?" });
    await question.getByText("Ada Lovelace (customer)").waitFor();
    const answer = messages.filter({ hasText: "Within 30 days of delivery." });
    await answer.getByText("AI", { exact: true }).waitFor();
    // The text as written: its line breaks and spaces are kept where they are drawn.
    // biome-ignore lint/performance/useDomNodeTextContent: innerText is what the page draws
    expect(await answer.locator(".message-text").innerText()).toBe(
      "Within 30 days of delivery.\n\nThe money returns   in five days.",
    );
    const sources = answer.getByRole("list", { name: "Sources" });
    expect(await sources.getByRole("listitem").allInnerTexts()).toEqual(["refunds.md"]);
    await sources.getByText("refunds.md").click();
    await sources.getByText("Refunds are accepted within 30 days").waitFor();
    const details = page.getByRole("complementary", { name: "Conversation details" });
    await details.getByText("Human requested", { exact: true }).waitFor({ state: "detached" });
    await details.getByText("Unresolved", { exact: true }).waitFor();
    await details.getByText("AI on", { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "conversations-view");

    await page.getByRole("button", { name: "Take over" }).click();
    await details.getByText("AI off", { exact: true }).waitFor();
    let stored = await conversationOf(app, org, id);
    expect(stored).toMatchObject({
      aiEnabled: false,
      status: "HUMAN_REQUESTED",
      assignee: { id: user.userId },
    });
    await details.getByText("Human requested", { exact: true }).waitFor();
    await expect(page.getByLabel("Assignee").inputValue()).resolves.toBe(user.userId);
    // Taken over by the user: nothing left to take.
    expect(await page.getByRole("button", { name: "Take over" }).count()).toBe(0);

    await page.getByLabel("Reply", { exact: true }).fill("Hello Ada,\n  I am on it.");
    await page.getByRole("button", { name: "Send reply" }).click();
    await page.getByRole("status").getByText("Your reply was added to the conversation.").waitFor();
    stored = await conversationOf(app, org, id);
    expect(stored.messages.at(-1)).toMatchObject({
      from: "agent",
      text: "Hello Ada,\n  I am on it.",
      user: { id: user.userId, email: user.email },
    });
    const reply = messages.filter({ hasText: "I am on it." });
    await reply.getByText("member (operator)").waitFor();
    expect(await page.getByLabel("Reply", { exact: true }).inputValue()).toBe("");
    await expectAccessible(page);

    await page.getByRole("button", { name: "Hand back to AI" }).click();
    await details.getByText("AI on", { exact: true }).waitFor();
    stored = await conversationOf(app, org, id);
    expect(stored).toMatchObject({ aiEnabled: true, status: "UNRESOLVED" });

    await page.getByRole("button", { name: "Resolve" }).click();
    await details.getByText("Resolved", { exact: true }).waitFor();
    stored = await conversationOf(app, org, id);
    expect(stored.status).toBe("RESOLVED");
    expect(await page.getByRole("button", { name: "Resolve" }).count()).toBe(0);

    // Unassigning through the select.
    await page.getByLabel("Assignee").selectOption("");
    await eventually(async () => expect((await conversationOf(app, org, id)).assignee).toBeNull());
  });

  test("follows its events: a message written elsewhere appears without reloading", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const id = await ask(app, org, "Is anyone there?");
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await openConversation(page, apiUrl, id);
    await page.getByRole("status").getByText("Live", { exact: true }).waitFor();
    const sent = await app.client(org.auth).agents.query(agentId, {
      query: "Hello again",
      conversationId: id,
    });
    expect(sent.status).toBe(200);
    await page
      .getByRole("list", { name: "Messages" })
      .getByText("Hello again", { exact: true })
      .waitFor();
  });

  test("a viewer reads it without Take over or Reply", async ({ app, apiUrl, browser, org }) => {
    const id = await ask(app, org, "Can a viewer answer me?");
    const { page } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished);
    await openConversation(page, apiUrl, id);
    await page
      .getByRole("list", { name: "Messages" })
      .getByText("Can a viewer answer me?", { exact: true })
      .waitFor();
    await page.getByText("Your role (viewer) can read conversations").waitFor();
    for (const name of ["Take over", "Send reply", "Hand back to AI", "Resolve", "Rate"]) {
      expect(await page.getByRole("button", { name }).count(), name).toBe(0);
    }
    expect(await page.getByLabel("Reply", { exact: true }).count()).toBe(0);
    expect(await page.getByLabel("Assignee").count()).toBe(0);
    await expectAccessible(page);
  });

  test("says what the API refused: a conversation that is not there", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await openConversation(page, apiUrl, "no-such-conversation");
    await page
      .getByRole("alert")
      .getByText(/not found/i)
      .waitFor();
    await expectAccessible(page);
  });

  test("fits a phone's screen", async ({ app, apiUrl, browser, org }) => {
    const id = await ask(
      app,
      org,
      "A question asked from a phone, long enough to wrap a few times on a narrow screen.",
    );
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished, PHONE);
    await openConversation(page, apiUrl, id);
    await page.getByRole("button", { name: "Send reply" }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(page);
  });
});
