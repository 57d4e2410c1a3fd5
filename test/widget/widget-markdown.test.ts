import type { Locator, Page } from "playwright-core";
import { describe, expect, onTestFinished } from "vitest";
import {
  answerFinished,
  hasChromium,
  operatorReplies,
  visitor,
  widgetTest,
} from "./widget-fixtures.ts";

const test = widgetTest();

/** An answer as models write them, cut into fragments in the middle of its markup. */
const ANSWER_CHUNKS = [
  "# Refund pol",
  "icy\n\nRefunds are accepted within **30 da",
  "ys** of _delivery_ [1].\n\n## How to ask\n\n1. Fill in the [returns form](https://shop.exa",
  "mple.com/returns).\n2. Quote your order number, e.g. `RB-1042`.\n\n- Pack the bike\n- Print *the* label\n\n",
  "```\nlabel --order RB-1042\n```\n\nQuestions? [Mail us](mailto:help@example.com).",
];

/** Everything a model could write to run its own code in the visitor's page. */
const HOSTILE = [
  '<img src=x onerror="window.pwned=1">',
  "<script>window.pwned=2</script>",
  "[click me](javascript:window.pwned=3)",
  '<a href="javascript:window.pwned=4">raw link</a> <b>not bold</b>',
  '**<iframe src="javascript:window.pwned=5"></iframe>**',
].join("\n\n");

let agentId: string;
test.beforeAll(async ({ api }) => {
  const created = await api.agents.create({
    name: "Rotterdam Bikes help",
    modelName: "gpt_4o_mini",
    visibility: "public",
  });
  expect(created.status).toBe(201);
  agentId = created.body.id;
});

async function ask(page: Page, question: string): Promise<Locator> {
  await page.getByRole("button", { name: "Open chat" }).click();
  await page.getByRole("textbox", { name: "Message" }).fill(question);
  await page.getByRole("button", { name: "Send" }).click();
  return page.getByRole("log");
}

/** The bubble of the last answer (a greeting may come before it). */
const lastAnswer = (log: Locator) => log.locator(".msg.agent").last();

async function expectRenderedAnswer(answer: Locator): Promise<void> {
  await answer.getByRole("heading", { name: "Refund policy", level: 3 }).waitFor();
  await answer.getByRole("heading", { name: "How to ask", level: 4 }).waitFor();
  expect(await answer.locator("strong").allTextContents()).toEqual(["30 days"]);
  expect(await answer.locator("em").allTextContents()).toEqual(["delivery", "the"]);
  expect(await answer.locator("p").first().textContent()).toBe(
    "Refunds are accepted within 30 days of delivery [1].",
  );
  const steps = answer.locator("ol").getByRole("listitem");
  expect(await steps.allTextContents()).toEqual([
    "Fill in the returns form.",
    "Quote your order number, e.g. RB-1042.",
  ]);
  expect(await answer.locator("ul").getByRole("listitem").allTextContents()).toEqual([
    "Pack the bike",
    "Print the label",
  ]);
  expect(await answer.locator("p code, li code").allTextContents()).toEqual(["RB-1042"]);
  expect(await answer.locator("pre > code").textContent()).toBe("label --order RB-1042");
  const form = answer.getByRole("link", { name: "returns form" });
  expect(await form.getAttribute("href")).toBe("https://shop.example.com/returns");
  expect(await form.getAttribute("target")).toBe("_blank");
  expect(await form.getAttribute("rel")).toBe("noopener noreferrer");
  const mail = answer.getByRole("link", { name: "Mail us" });
  expect(await mail.getAttribute("href")).toBe("mailto:help@example.com");
  expect(await mail.getAttribute("rel")).toBe("noopener noreferrer");
  // No markup characters left over.
  expect(await answer.locator(".text").textContent()).not.toMatch(/[#*`_]|\]\(/);
}

async function expectHostileAsText(page: Page, answer: Locator): Promise<void> {
  await answer.getByText("[click me](javascript:window.pwned=3)").waitFor();
  await answer.getByText('<img src=x onerror="window.pwned=1">').waitFor();
  await answer.getByText("<script>window.pwned=2</script>").waitFor();
  await answer
    .getByText('<a href="javascript:window.pwned=4">raw link</a> <b>not bold</b>')
    .waitFor();
  // Bold is markdown, what it holds is text.
  expect(await answer.locator("strong").textContent()).toBe(
    '<iframe src="javascript:window.pwned=5"></iframe>',
  );
  expect(await answer.locator("img, script, iframe, b, a").count()).toBe(0);
  expect(await page.locator('[href^="javascript:" i], [src^="javascript:" i]').count()).toBe(0);
  expect(await page.evaluate("window.pwned")).toBeUndefined();
}

describe.skipIf(!hasChromium)("markdown in the widget's answers", () => {
  test("an answer's headings, emphasis, lists, code and links are rendered, also after a reload", async ({
    browser,
    host,
    fake,
  }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId }));
    fake.script({ chunks: ANSWER_CHUNKS });
    const log = await ask(page, "How do I return my bike?");
    await answerFinished(log);
    await expectRenderedAnswer(lastAnswer(log));

    // Stored and read back: the same elements.
    await page.reload();
    await page.getByRole("button", { name: "Open chat" }).click();
    await page.getByRole("log").getByText("How do I return my bike?").waitFor();
    await expectRenderedAnswer(lastAnswer(page.getByRole("log")));
  });

  test("is rendered while the answer streams: closed markup shows, open markup waits", async ({
    browser,
    host,
    fake,
  }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId }));
    fake.script({ chunks: ANSWER_CHUNKS, hangAfterChunks: 2 });
    const log = await ask(page, "How do I return my bike?");
    const pending = log.locator('[aria-busy="true"]');
    await pending.getByText("Refunds are accepted within **30 da").waitFor();
    await pending.getByRole("heading", { name: "Refund policy", level: 3 }).waitFor();
    expect(await pending.locator("strong").count()).toBe(0);
  });

  test("a hostile answer puts none of its HTML in the page, only its characters", async ({
    browser,
    host,
    fake,
  }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId }));
    fake.script({ text: HOSTILE });
    const log = await ask(page, "Show me a picture");
    await answerFinished(log);
    await expectHostileAsText(page, lastAnswer(log));

    await page.reload();
    await page.getByRole("button", { name: "Open chat" }).click();
    await page.getByRole("log").getByText("Show me a picture").waitFor();
    await expectHostileAsText(page, lastAnswer(page.getByRole("log")));
  });

  test("a person's reply from the live stream is rendered the same way", async ({
    app,
    org,
    browser,
    host,
    fake,
  }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId }));
    fake.script({ text: "Let me find a person for you." });
    const log = await ask(page, "Where is my refund?");
    await answerFinished(log);
    await operatorReplies(
      page,
      app,
      org,
      agentId,
      "**Refunded** today:\n- order RB-1042\n- <img src=x onerror=alert(1)>",
    );
    const answer = lastAnswer(log);
    await answer.locator("strong").getByText("Refunded").waitFor();
    expect(await answer.getByRole("listitem").allTextContents()).toEqual([
      "order RB-1042",
      "<img src=x onerror=alert(1)>",
    ]);
    expect(await answer.locator("img").count()).toBe(0);
  });
});
