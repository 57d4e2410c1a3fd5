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

/** The API requests a page made for its data (the session and the event stream aside). */
function dataRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith("/api/")) return;
    if (url.pathname === "/api/auth/session" || url.pathname === "/api/events") return;
    seen.push(`${request.method()} ${url.pathname}`);
  });
  return seen;
}

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
    const requests = dataRequests(page);
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
    expect(requests.sort()).toEqual(["GET /api/annotations", `GET /api/conversations/${id}`]);
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

describe.skipIf(!runsConsole)("the inbox", () => {
  test("lists conversations with their last message; filters narrow them and live in the address", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const parcel = await ask(app, org, "Where is my parcel?", {
      firstName: "Grace",
      lastName: "Hopper",
    });
    const gift = await ask(app, org, "Do you sell gift cards?", {
      firstName: "Alan",
      lastName: "Turing",
    });
    const { page, user } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    const requests = dataRequests(page);
    await page.goto(`${apiUrl}/console/conversations`);
    const list = page.getByRole("list", { name: "Conversations" });
    const grace = list.getByRole("listitem").filter({ hasText: "Grace Hopper" });
    const alan = list.getByRole("listitem").filter({ hasText: "Alan Turing" });
    await grace.getByText("Answer: Where is my parcel?").waitFor();
    for (const text of ["Unresolved", "AI on", "API", "Refund desk", "Unassigned"]) {
      await grace.getByText(text, { exact: true }).waitFor();
    }
    expect(requests.sort()).toEqual(["GET /api/agents", "GET /api/conversations"]);
    await page.getByRole("status").getByText("Live", { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "conversations-inbox");

    // Text search: through the API, in the address, undone by Back.
    await page.getByLabel("Search").fill("gift cards");
    await grace.waitFor({ state: "detached" });
    await alan.waitFor();
    expect(new URL(page.url()).searchParams.get("q")).toBe("gift cards");
    await page.getByLabel("Search").fill("");
    await grace.waitFor();

    // Taken over and assigned to this user: "Needs a human" and "Me" find it, "Nobody" not.
    const taken = await app.api.inject({
      method: "PATCH",
      url: `/api/conversations/${gift}?agentId=${agentId}`,
      headers: user.headers,
      payload: { aiEnabled: false, assigneeId: user.userId },
    });
    expect(taken.statusCode, taken.body).toBe(200);
    await alan.getByText("Assigned to member").waitFor();
    // A click, not check(): the box follows the address, which the router changes in a transition.
    await page.getByLabel("Needs a human").click();
    await grace.waitFor({ state: "detached" });
    await alan.getByText("Human requested", { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get("aiEnabled")).toBe("false");
    expect(await page.getByLabel("Needs a human").isChecked()).toBe(true);
    await page.getByLabel("Needs a human").click();
    await grace.waitFor();
    await page.getByLabel("Assignee").selectOption("me");
    await grace.waitFor({ state: "detached" });
    await alan.waitFor();
    await page.getByLabel("Assignee").selectOption("none");
    await alan.waitFor({ state: "detached" });
    await grace.waitFor();
    await page.getByLabel("Assignee").selectOption("");
    await page.getByLabel("Status").selectOption("RESOLVED");
    await grace.waitFor({ state: "detached" });
    expect(new URL(page.url()).searchParams.get("status")).toBe("RESOLVED");
    await page.goBack();
    await grace.waitFor();
    await page.getByLabel("Channel").selectOption("telegram");
    await page.getByText("No conversation matches these filters").waitFor();
    await page.getByLabel("Channel").selectOption("");
    await expectAccessible(page);

    // The export needs an agent; then it is the spec's CSV of that agent's conversations.
    await page.getByText("Choose an agent to export").waitFor();
    await page.getByLabel("Agent").selectOption({ label: "Refund desk" });
    const exportLink = page.getByRole("link", { name: "Export CSV" });
    const href = (await exportLink.getAttribute("href"))!;
    expect(href).toBe(`/api/agents/${agentId}/conversations-export?limit=100000`);
    const csv = await page.request.get(`${apiUrl}${href}`);
    expect(csv.status()).toBe(200);
    const text = await csv.text();
    expect(text.split("\n")[0]?.trim()).toBe(
      "conversation_id,message_from,message_text,message_created_at",
    );
    expect(text).toContain("Where is my parcel?");

    // A row opens its conversation; the way back keeps the filters.
    await grace.getByRole("link", { name: "Grace Hopper" }).click();
    await page.getByRole("heading", { name: "Conversation with Grace Hopper" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/conversations/${parcel}`);
    await page.getByText("AI (Refund desk)").waitFor();
    await page.getByRole("link", { name: "← Conversations" }).click();
    await page.getByLabel("Agent").waitFor();
    expect(new URL(page.url()).searchParams.get("agentId")).toBe(agentId);
  });

  test("a conversation that asks for a person appears in the open inbox without reloading", async ({
    app,
    apiUrl,
    browser,
    org,
    fake,
  }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/conversations?aiEnabled=false`);
    await expect(page.getByLabel("Needs a human").isChecked()).resolves.toBe(true);
    await page.getByRole("status").getByText("Live", { exact: true }).waitFor();
    fake.script(
      { toolCalls: [{ name: "request_human", arguments: { reason: "a damaged parcel" } }] },
      { text: "A colleague will take over." },
    );
    await ask(app, org, "My parcel arrived broken, I want to talk to someone", {
      firstName: "Linus",
    });
    const row = page
      .getByRole("list", { name: "Conversations" })
      .getByRole("listitem")
      .filter({ hasText: "Linus" });
    await row.getByText("Human requested", { exact: true }).waitFor();
    await row.getByText("AI off", { exact: true }).waitFor();
  });

  test("fits a phone's screen", async ({ app, apiUrl, browser, org }) => {
    await ask(app, org, "Can I change my delivery address?", { email: "someone@example.com" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished, PHONE);
    await page.goto(`${apiUrl}/console/conversations`);
    await page
      .getByRole("list", { name: "Conversations" })
      .getByText("someone@example.com")
      .first()
      .waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(page);
    await screenshot(page, "conversations-inbox-375");
  });

  test("reads the next page on Load more", async ({ app, apiUrl, browser }) => {
    const busy = await app.createOrganization("Busy");
    const busyAgent = (
      await app.client(busy.auth).agents.create({ name: "Busy desk", modelName: "gpt_4o_mini" })
    ).body;
    // 51 conversations, one more than a page: the agent's messages, no model needed.
    for (let index = 1; index <= 51; index += 1) {
      const added = await app.client(busy.auth).agents.queryAgent(busyAgent.id, {
        query: `Note ${index}`,
        contact: { firstName: `Customer ${index}` },
      });
      expect(added.status, added.text).toBe(200);
    }
    const { page } = await signedInPage(browser, app, apiUrl, busy, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/conversations?sort=createdAt`);
    const rows = page.getByRole("list", { name: "Conversations" }).getByRole("listitem");
    await rows.first().getByText("Customer 51", { exact: true }).waitFor();
    expect(await rows.count()).toBe(50);
    await page.getByRole("button", { name: "Load more" }).click();
    await rows.nth(50).getByText("Customer 1", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
  });

  test("an organization without conversations says where they come from", async ({
    app,
    apiUrl,
    browser,
  }) => {
    const empty = await app.createOrganization("Newcomer");
    const { page } = await signedInPage(browser, app, apiUrl, empty, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/conversations`);
    await page.getByText("No conversations yet").waitFor();
    await expectAccessible(page);
  });
});
