import { describe, expect, onTestFinished } from "vitest";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import {
  consoleTest,
  expectAccessible,
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
test.beforeAll(async ({ app, org, api }) => {
  const datastoreId = (await createDatastore(app, org, { name: "Help centre" })).id;
  const datasource = await addFile(app, org, datastoreId, {
    fileName: "refunds.md",
    contentType: "text/markdown",
    content: REFUNDS,
  });
  expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
  const created = await api.agents.create({
    name: "Rotterdam Bikes help",
    modelName: "gpt_4o_mini",
    datastoreIds: [datastoreId],
  });
  expect(created.status).toBe(201);
  agentId = created.body.id;
});

const chatRequests = (fake: { requests: Array<{ path: string; body?: unknown }> }) =>
  fake.requests.filter((request) => request.path === "/v1/chat/completions");

describe.skipIf(!runsConsole)("an agent's playground", () => {
  test("streams the answer with its sources and continues the conversation until a new one", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
    fake,
  }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/agents/${agentId}/playground`);
    await page.getByRole("heading", { name: "Playground", level: 2 }).waitFor();
    await page.getByText("No messages yet").waitFor();
    await expectAccessible(page);

    // The answer arrives in two parts a while apart: the first is on screen before the second.
    fake.script({
      chunks: ["Refunds take ", "five business days."],
      chunkDelayMs: 1_500,
    });
    await page.getByRole("textbox", { name: "Message" }).fill("How long do refunds take?");
    await page.getByRole("button", { name: "Send" }).click();
    const log = page.getByRole("log", { name: "Conversation with the agent" });
    await log.getByText("Refunds take", { exact: true }).waitFor();
    expect(await log.getAttribute("aria-busy")).toBe("true");
    await log.getByText("Refunds take five business days.", { exact: true }).waitFor();
    await page.locator('[role="log"][aria-busy="false"]').waitFor();

    const sources = log.getByRole("list", { name: "Sources" });
    await sources.getByText("refunds.md").waitFor();
    await sources.getByText(/Refunds are accepted within 30 days/).waitFor();
    const conversationId = (await page.locator(".playground-conversation code").textContent())!;
    expect(conversationId).not.toBe("");
    await expectAccessible(page);
    await screenshot(page, "agents-playground");

    // A follow-up continues the same conversation: the model is given the first exchange.
    fake.script({ text: "Yes, to the card you paid with." });
    await page.getByRole("textbox", { name: "Message" }).fill("To my card?");
    await page.keyboard.press("Enter");
    await log.getByText("Yes, to the card you paid with.").waitFor();
    await page.locator('[role="log"][aria-busy="false"]').waitFor();
    expect(await page.locator(".playground-conversation code").textContent()).toBe(conversationId);
    const followUp = chatRequests(fake).at(-1)!.body as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(followUp.messages)).toContain("How long do refunds take?");
    const stored = await api.conversations.get(conversationId, { agentId });
    expect(stored.status).toBe(200);
    expect((stored.body as { messages: unknown[]; channel: string }).messages).toHaveLength(4);
    expect((stored.body as { channel: string }).channel).toBe("dashboard");

    await page.getByRole("button", { name: "New conversation" }).click();
    await page.getByText("No messages yet").waitFor();
    expect(await page.locator(".playground-conversation").count()).toBe(0);
    fake.script({ text: "Hello again." });
    await page.getByRole("textbox", { name: "Message" }).fill("Hello");
    await page.getByRole("button", { name: "Send" }).click();
    await log.getByText("Hello again.").waitFor();
    await page.locator(".playground-conversation code").waitFor();
    expect(await page.locator(".playground-conversation code").textContent()).not.toBe(
      conversationId,
    );
  });

  test("says in words when the model fails", async ({ app, apiUrl, browser, org, fake }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/agents/${agentId}/playground`);
    fake.script({ status: 400, errorMessage: "The scripted model refuses" });
    await page.getByRole("textbox", { name: "Message" }).fill("Anyone there?");
    await page.getByRole("button", { name: "Send" }).click();
    const alert = page.getByRole("log").getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^The (agent could not answer|answer stopped): \S/);
    await expectAccessible(page);
  });

  test("a viewer sees the playground without being able to ask", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished);
    await page.goto(`${apiUrl}/console/agents/${agentId}/playground`);
    await page.getByText("Viewers cannot ask agents").waitFor();
    expect(await page.getByRole("textbox", { name: "Message" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
    await expectAccessible(page);
  });
});
