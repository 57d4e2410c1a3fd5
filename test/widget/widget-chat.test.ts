import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, onTestFinished } from "vitest";
import { htmlPage, startFakeWebSite } from "../fakes/web-site.ts";
import { unchecked } from "../harness/client.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import {
  answerFinished,
  hasChromium,
  operatorReplies,
  visitor,
  waitForFocus,
  widgetTest,
} from "./widget-fixtures.ts";

const test = widgetTest();

/** Where the screenshots go: a temporary folder, or docs/ through `npm run screenshots`. */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), "widget-shots-"));

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
    visibility: "public",
    datastoreIds: [datastoreId],
  });
  expect(created.status).toBe(201);
  agentId = created.body.id;
});

/** What a test runs in the page needs of its window (the tests' TypeScript has no DOM types). */
type PageWindow = { getComputedStyle(element: unknown): { fontSize: string } };
type Box = { scrollWidth: number; clientWidth: number };

/** The screenshots' answer: a model's usual markdown, with a code line wider than the panel. */
const MARKDOWN_ANSWER = [
  "## Refunds",
  "",
  "Refunds are accepted within **30 days** of delivery [1]:",
  "",
  "1. Fill in the [returns form](https://shop.example.com/returns).",
  "2. Pack the bike and print the label:",
  "",
  "```",
  "label --order RB-1042 --carrier postnl --pickup 2026-12-01T09:00",
  "```",
].join("\n");

const chatRequests = (fake: { requests: Array<{ path: string }> }) =>
  fake.requests.filter((request) => request.path === "/v1/chat/completions");

describe.skipIf(!hasChromium)("the widget on a customer's site", () => {
  test("lists a web page source as a link to the page", async ({
    app,
    org,
    api,
    browser,
    host,
    fake,
  }) => {
    const web = await startFakeWebSite({
      "/delivery": htmlPage(
        "Delivery",
        "Parcels leave our warehouse in Rotterdam every weekday at noon.",
      ),
    });
    onTestFinished(() => web.close());
    const datastoreId = (await createDatastore(app, org, { name: "Web site" })).id;
    const page = await api.datasources.create(
      unchecked({
        datastoreId,
        type: "web_page",
        name: "Delivery",
        config: { source_url: `${web.base}/delivery` },
      }),
    );
    expect(page.status).toBe(201);
    expect((await waitForSync(app, org, (page.body as { id: string }).id)).status).toBe("synched");
    const created = await api.agents.create({
      name: "Delivery desk",
      modelName: "gpt_4o_mini",
      visibility: "public",
      datastoreIds: [datastoreId],
    });
    expect(created.status).toBe(201);

    const visit = await visitor(browser, onTestFinished);
    await visit.page.goto(host.page({ agentId: created.body.id }));
    await visit.page.getByRole("button", { name: "Open chat" }).click();
    fake.script({ text: "Every weekday at noon." });
    await visit.page.getByRole("textbox", { name: "Message" }).fill("When do parcels leave?");
    await visit.page.getByRole("button", { name: "Send" }).click();
    const link = visit.page
      .getByRole("list", { name: "Sources" })
      .getByRole("link", { name: `${web.base}/delivery` });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`${web.base}/delivery`);
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
  });

  test("answers a question with streamed text and its sources, takes feedback, survives a reload", async ({
    browser,
    host,
    fake,
    api,
  }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId }));

    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotterdam Bikes help" });
    await dialog.waitFor();
    const message = dialog.getByRole("textbox", { name: "Message" });
    // Shift+Enter makes a new line; Enter sends.
    await message.pressSequentially("Hello");
    await message.press("Shift+Enter");
    await message.pressSequentially("how long do refunds take?");
    expect(await message.inputValue()).toBe("Hello\nhow long do refunds take?");

    fake.script({ chunks: ["Refunds are ", "accepted within ", "30 days."] });
    const asked = page.waitForRequest((request) => request.url().endsWith("/chat"));
    await message.press("Enter");
    const request = await asked;
    expect(request.postDataJSON()).toMatchObject({
      query: "Hello\nhow long do refunds take?",
      streaming: true,
    });
    expect((await request.response())?.headers()["content-type"]).toMatch(/^text\/event-stream/);

    const log = dialog.getByRole("log");
    await log.getByText("Refunds are accepted within 30 days.").waitFor();
    await answerFinished(log);
    await log.getByText("Hello\nhow long do refunds take?").waitFor();
    const sources = log.getByRole("list", { name: "Sources" });
    expect(await sources.getByRole("listitem").allTextContents()).toEqual(["refunds.md"]);
    // A file is a name, not a link.
    expect(await sources.getByRole("link").count()).toBe(0);
    expect(await message.inputValue()).toBe("");

    await log.getByRole("button", { name: "Helpful", exact: true }).click();
    await log.getByRole("button", { name: "Helpful", exact: true, pressed: true }).waitFor();
    const annotations = await api.annotations.list({ agentId });
    expect(annotations.status).toBe(200);
    expect(annotations.body).toHaveLength(1);
    expect(annotations.body[0]).toMatchObject({ sentiment: "good", comment: "Helpful" });
    const conversationId = (await page.evaluate(
      `localStorage.getItem("agentdesk:${agentId}:conversation")`,
    )) as string;
    const conversation = await api.conversations.get(conversationId);
    expect(conversation.status).toBe(200);
    const answerMessage = (conversation.body as { messages: Array<{ id: string; text: string }> })
      .messages[1];
    expect(answerMessage?.text).toBe("Refunds are accepted within 30 days.");
    expect(annotations.body[0]?.messageId).toBe(answerMessage?.id);

    // A reload: the same visitor and conversation from localStorage, read back from the API.
    const modelCalls = chatRequests(fake).length;
    await page.reload();
    await page.getByRole("button", { name: "Open chat" }).click();
    const reloaded = page.getByRole("dialog", { name: "Rotterdam Bikes help" }).getByRole("log");
    await reloaded.getByText("Refunds are accepted within 30 days.").waitFor();
    await reloaded.getByText("Hello\nhow long do refunds take?").waitFor();
    expect(
      await reloaded.getByRole("list", { name: "Sources" }).getByRole("listitem").allTextContents(),
    ).toEqual(["refunds.md"]);
    expect(chatRequests(fake)).toHaveLength(modelCalls);

    // The next question continues the same conversation.
    fake.script({ text: "Five business days." });
    const next = page.waitForRequest((request) => request.url().endsWith("/chat"));
    await page.getByRole("textbox", { name: "Message" }).fill("And the money?");
    await page.getByRole("button", { name: "Send" }).click();
    expect((await next).postDataJSON()).toMatchObject({ conversationId });
    await reloaded.getByText("Five business days.").waitFor();
  });

  test("shows the answer while it is still streaming", async ({ browser, host, fake }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId }));
    await page.getByRole("button", { name: "Open chat" }).click();
    // The model sends its first words, then nothing: only a streamed answer shows them.
    fake.script({ chunks: ["Parcels leave ", "every weekday."], hangAfterChunks: 1 });
    await page.getByRole("textbox", { name: "Message" }).fill("When do parcels leave?");
    await page.getByRole("textbox", { name: "Message" }).press("Enter");
    const pending = page.getByRole("log").locator('[aria-busy="true"]');
    await pending.getByText("Parcels leave").waitFor();
    expect(await page.getByRole("log").getByText("every weekday").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
  });

  test("works by keyboard alone: focus moves into the dialog, Escape returns it", async ({
    browser,
    host,
    fake,
  }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId }));
    await page.getByRole("button", { name: "Open chat" }).waitFor();
    // The host page's own button first, then the launcher.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await waitForFocus(page, "Open chat");
    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "Rotterdam Bikes help" }).waitFor();
    await waitForFocus(page, "Message");

    fake.script({ text: "We are open every weekday." });
    await page.keyboard.type("When are you open?");
    await page.keyboard.press("Enter");
    await page.getByRole("log").getByText("We are open every weekday.").waitFor();

    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await waitForFocus(page, "Open chat");
    expect(
      await page.getByRole("button", { name: "Open chat" }).getAttribute("aria-expanded"),
    ).toBe("false");
  });

  for (const width of [375, 1280]) {
    test(`fits a ${width}-px-wide screen, untouched by the site's styles (docs/widget-${width}.png)`, async ({
      browser,
      host,
      fake,
    }) => {
      const height = width === 375 ? 740 : 800;
      const { page } = await visitor(browser, onTestFinished, { width, height });
      await page.goto(host.page({ agentId, data: { greeting: "Hi! Ask us about your bike." } }));
      await page.getByRole("button", { name: "Open chat" }).click();
      fake.script({ text: MARKDOWN_ANSWER });
      await page.getByRole("textbox", { name: "Message" }).fill("How long do refunds take?");
      await page.getByRole("button", { name: "Send" }).click();
      const log = page.getByRole("log");
      await log.getByRole("button", { name: "Not helpful" }).waitFor();
      await log.getByRole("heading", { name: "Refunds" }).waitFor();
      expect(await log.getByRole("listitem").count()).toBe(3); // two steps, one source

      for (const control of [
        page.getByRole("dialog"),
        page.getByRole("textbox", { name: "Message" }),
        page.getByRole("button", { name: "Send" }),
        page.getByRole("button", { name: "Record voice message" }),
      ]) {
        const box = await control.boundingBox();
        expect(box).not.toBeNull();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
        expect(box!.y + box!.height).toBeLessThanOrEqual(height);
      }
      // The host page makes its buttons red and 40 px; the widget's are its own.
      const send = page.getByRole("button", { name: "Send" });
      const fontSize = await send.evaluate(
        (element) =>
          (globalThis as unknown as PageWindow).getComputedStyle(element).fontSize as string,
      );
      expect(fontSize).toBe("15px");
      // The wide code line scrolls in its block; the conversation never scrolls sideways.
      const code = log.locator("pre");
      const [codeBox, bubbleBox] = [
        await code.boundingBox(),
        await code.locator("..").boundingBox(),
      ];
      expect(codeBox!.x + codeBox!.width).toBeLessThanOrEqual(bubbleBox!.x + bubbleBox!.width);
      const widths = async (element: typeof log) =>
        element.evaluate((node) => {
          const box = node as unknown as Box;
          return { scroll: box.scrollWidth, client: box.clientWidth };
        });
      const codeWidths = await widths(code);
      expect(codeWidths.scroll).toBeGreaterThan(codeWidths.client);
      const logWidths = await widths(log);
      expect(logWidths.scroll).toBeLessThanOrEqual(logWidths.client);
      // `npm run screenshots` keeps them in docs/; a test run leaves the checkout untouched.
      await page.screenshot({ path: join(SCREENSHOT_DIR, `widget-${width}.png`) });
    });
  }

  test("shows a person taking over and their reply as it is sent, without a reload", async ({
    app,
    org,
    browser,
    host,
    fake,
  }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId }));
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotterdam Bikes help" });
    const log = dialog.getByRole("log");
    fake.script({ text: "Refunds take five business days." });
    await dialog.getByRole("textbox", { name: "Message" }).fill("Where is my refund?");
    await dialog.getByRole("button", { name: "Send" }).click();
    await log.getByText("Refunds take five business days.").waitFor();
    await answerFinished(log);

    await operatorReplies(page, app, org, agentId, "Hi, Sam here. I have refunded your order.");
    await log.getByText("member joined the conversation").waitFor();
    await log.getByText("Hi, Sam here. I have refunded your order.").waitFor();
    await page.screenshot({ path: join(SCREENSHOT_DIR, "widget-operator-reply.png") });

    // While the person handles it, a question gets no AI answer, and no empty bubble.
    const modelCalls = chatRequests(fake).length;
    await dialog.getByRole("textbox", { name: "Message" }).fill("Thank you!");
    await dialog.getByRole("button", { name: "Send" }).click();
    await log.getByText("Thank you!").waitFor();
    await dialog.getByRole("button", { name: "Send" }).and(page.locator(":enabled")).waitFor();
    expect(chatRequests(fake)).toHaveLength(modelCalls);
    expect(await log.locator(".msg.agent .text:empty").count()).toBe(0);
  });
});
