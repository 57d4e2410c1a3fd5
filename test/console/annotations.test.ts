import { describe, expect, onTestFinished } from "vitest";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import {
  consoleTest,
  expectAccessible,
  runsConsole,
  screenshot,
  signedInPage,
} from "./console-fixtures.ts";

const test = consoleTest();

/** A conversation of the `agent` fixture: the customer asks, the fake model answers. */
async function answered(app: TestApp, org: TestOrganization, agentId: string, query: string) {
  const response = await app.client(org.auth).agents.query(agentId, { query });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const annotationsOf = async (app: TestApp, org: TestOrganization, messageId: string) =>
  (await app.client(org.auth).annotations.list({ messageId })).body;

describe.skipIf(!runsConsole)("annotations", () => {
  test("an organization without ratings says where they come from", async ({
    app,
    apiUrl,
    browser,
  }) => {
    const empty = await app.createOrganization("Quiet");
    const { page } = await signedInPage(browser, app, apiUrl, empty, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/annotations`);
    await page.getByText("No annotations yet").waitFor();
    await expectAccessible(page);
  });

  test("rate an answer in its conversation, review it in Annotations, change its status", async ({
    app,
    apiUrl,
    browser,
    org,
    agent,
  }) => {
    const { answer, conversationId, messageId } = await answered(
      app,
      org,
      agent.id,
      "Do you ship to Norway?",
    );
    expect(answer).toBe("Answer: Do you ship to Norway?");
    const { page, user } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/conversations/${conversationId}?agentId=${agent.id}`);
    const message = page.locator(`#message-${messageId}`);
    await message.getByRole("button", { name: "Rate" }).click();
    const form = message.getByRole("form", { name: "Rate this answer" });
    // A comment is required: the form says so before asking the API.
    await form.getByLabel("Good").check();
    await form.getByRole("button", { name: "Save rating" }).click();
    await form.getByRole("alert").getByText("Write a comment").waitFor();
    await form.getByLabel("Comment").fill("Right, but it could name the carrier.");
    await form.getByLabel("New tag").fill("shipping");
    await form.getByRole("button", { name: "Add tag" }).click();
    await form.getByLabel("shipping").waitFor();
    await expect.poll(() => form.getByLabel("shipping").isChecked()).toBe(true);
    await expectAccessible(page);
    await form.getByRole("button", { name: "Save rating" }).click();
    await message.getByText("Rated good").waitFor();
    const [stored] = await annotationsOf(app, org, messageId);
    expect(stored).toMatchObject({
      sentiment: "good",
      comment: "Right, but it could name the carrier.",
      status: "pending",
      createdById: user.userId,
      tags: [{ tag: { name: "shipping" } }],
    });
    await message.getByRole("button", { name: "Change rating" }).waitFor();

    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Annotations" })
      .click();
    await page.getByRole("heading", { name: "Annotations", level: 1 }).waitFor();
    const row = page.getByRole("row").filter({ hasText: "Right, but it could name the carrier." });
    await row.getByText("shipping").waitFor();
    await row.getByText(user.email).waitFor();
    await row.getByRole("button", { name: "Show message" }).click();
    await row.getByText("Answer: Do you ship to Norway?").waitFor();
    await expectAccessible(page);
    await screenshot(page, "annotations");

    await row.getByRole("combobox").selectOption("completed");
    await page.getByRole("status").getByText("Status changed to completed.").waitFor();
    expect((await annotationsOf(app, org, messageId))[0]?.status).toBe("completed");

    // The filters narrow the list through the API and live in the address.
    await page.getByLabel("Status", { exact: true }).selectOption("pending");
    await page.getByText("No annotation matches these filters").waitFor();
    expect(new URL(page.url()).searchParams.get("status")).toBe("pending");
    await page.goBack();
    await row.waitFor();
    await page.getByLabel("Sentiment").selectOption("bad");
    await page.getByText("No annotation matches these filters").waitFor();
    await page.getByLabel("Sentiment").selectOption("good");
    await page.getByLabel("Tag").selectOption("shipping");
    await row.waitFor();

    // The row leads to the message in its conversation, scrolled to and marked.
    await row.getByRole("link", { name: "Open in conversation" }).click();
    await page.getByRole("heading", { name: /^Conversation with/, level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#message-${messageId}`);
    await page.locator(`#message-${messageId}.message-highlighted`).waitFor();
    await expect
      .poll(() => page.evaluate("document.activeElement && document.activeElement.id"))
      .toBe(`message-${messageId}`);
  });

  test("deleting asks first, and says when the rating is already gone", async ({
    app,
    apiUrl,
    browser,
    org,
    agent,
  }) => {
    const { messageId } = await answered(app, org, agent.id, "Can I pay by invoice?");
    const created = await app.client(org.auth).annotations.create({
      messageId,
      sentiment: "bad",
      comment: "Invoices are possible above 500 euros.",
    });
    expect(created.status).toBe(200);
    const second = await answered(app, org, agent.id, "Is there a student discount?");
    const other = await app.client(org.auth).annotations.create({
      messageId: second.messageId,
      sentiment: "bad",
      comment: "We have no student discount: say so.",
    });
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/annotations?sentiment=bad`);
    const row = page.getByRole("row").filter({ hasText: "Invoices are possible above 500 euros." });
    await row.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this rating?" });
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Delete rating" }).click();
    await row.waitFor({ state: "detached" });
    expect(await annotationsOf(app, org, messageId)).toEqual([]);

    // Deleted elsewhere meanwhile: the API's 404 is shown.
    expect((await app.client(org.auth).annotations.delete(other.body.id)).status).toBe(200);
    const gone = page.getByRole("row").filter({ hasText: "We have no student discount" });
    await gone.getByRole("button", { name: "Delete" }).click();
    await page
      .getByRole("dialog", { name: "Delete this rating?" })
      .getByRole("button", { name: "Delete rating" })
      .click();
    await page
      .getByRole("alert")
      .getByText(/not found/i)
      .waitFor();
  });

  test("reads the next page on Load more", async ({ app, apiUrl, browser }) => {
    const busy = await app.createOrganization("Reviewed");
    const client = app.client(busy.auth);
    const busyAgent = (await client.agents.create({ name: "Busy desk", modelName: "gpt_4o_mini" }))
      .body;
    // 21 rated answers, one more than the spec's page of 20: agent messages, no model needed.
    for (let index = 1; index <= 21; index += 1) {
      const added = await client.agents.queryAgent(busyAgent.id, { query: `Answer ${index}` });
      expect(added.status, added.text).toBe(200);
      const rated = await client.annotations.create({
        messageId: added.body.messageId,
        sentiment: "good",
        comment: `Review ${index}`,
      });
      expect(rated.status, rated.text).toBe(200);
    }
    const { page } = await signedInPage(browser, app, apiUrl, busy, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/annotations`);
    const rows = page.getByRole("row").filter({ hasText: /Review \d+/ });
    await rows.first().getByText("Review 21", { exact: true }).waitFor();
    expect(await rows.count()).toBe(20);
    await page.getByRole("button", { name: "Load more" }).click();
    await rows.nth(20).getByText("Review 1", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
  });

  test("a viewer reads the queue without changing it", async ({
    app,
    apiUrl,
    browser,
    org,
    agent,
  }) => {
    const { messageId } = await answered(app, org, agent.id, "What are your opening hours?");
    await app.client(org.auth).annotations.create({
      messageId,
      sentiment: "good",
      comment: "Hours are right.",
    });
    const { page } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished);
    const requests: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith("/api/") && pathname !== "/api/auth/session") requests.push(pathname);
    });
    await page.goto(`${apiUrl}/console/annotations`);
    const row = page.getByRole("row").filter({ hasText: "Hours are right." });
    await row.getByText("pending").waitFor();
    // The page's data in two requests.
    expect(requests.sort()).toEqual(["/api/annotation-statuses", "/api/annotations"]);
    expect(await row.getByRole("combobox").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    await expectAccessible(page);
  });
});
