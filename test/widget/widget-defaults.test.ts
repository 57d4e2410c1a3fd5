import { describe, expect, onTestFinished } from "vitest";
import { answerFinished, hasChromium, visitor, widgetTest } from "./widget-fixtures.ts";

const test = widgetTest();

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

describe.skipIf(!hasChromium)("what a visitor sees without asking for it", () => {
  test("a page without data-greeting gets the built-in greeting and a placeholder, in English", async ({
    browser,
    host,
  }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId }));
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotterdam Bikes help" });
    expect(await dialog.getByRole("log").locator(".msg").allTextContents()).toEqual([
      "Hello! How can I help you?",
    ]);
    const message = dialog.getByRole("textbox", { name: "Message" });
    expect(await message.getAttribute("placeholder")).toBe("Type your question…");
    expect(await dialog.getByPlaceholder("Type your question…").isVisible()).toBe(true);
  });

  test("with data-lang=fr, both are in French", async ({ browser, host }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId, data: { lang: "fr" } }));
    await page.getByRole("button", { name: "Ouvrir la discussion" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotterdam Bikes help" });
    expect(await dialog.getByRole("log").locator(".msg").allTextContents()).toEqual([
      "Bonjour\u00a0! Comment puis-je vous aider\u00a0?",
    ]);
    expect(await dialog.getByRole("textbox", { name: "Message" }).getAttribute("placeholder")).toBe(
      "Écrivez votre question…",
    );
  });

  test("data-greeting replaces the greeting, and an empty one shows none", async ({
    browser,
    host,
  }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId, data: { greeting: "Hi! Ask us about your bike." } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    expect(await page.getByRole("log").locator(".msg").allTextContents()).toEqual([
      "Hi! Ask us about your bike.",
    ]);

    await page.goto(host.page({ agentId, data: { greeting: "" } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await page.getByRole("dialog", { name: "Rotterdam Bikes help" }).waitFor();
    expect(await page.getByRole("log").locator(".msg").count()).toBe(0);
  });

  test("the visitor's rating of an answer is still shown after a reload, and not sent again", async ({
    browser,
    host,
    fake,
    api,
  }) => {
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId }));
    await page.getByRole("button", { name: "Open chat" }).click();
    const log = page.getByRole("log");
    for (const [question, answer] of [
      ["Do you deliver on Sundays?", "No, only on weekdays."],
      ["And on Saturdays?", "Neither."],
    ] as const) {
      fake.script({ text: answer });
      await page.getByRole("textbox", { name: "Message" }).fill(question);
      await page.getByRole("button", { name: "Send" }).click();
      await log.getByText(answer).waitFor();
      await answerFinished(log);
    }
    const first = log.locator(".msg.agent", { hasText: "No, only on weekdays." });
    await first.getByRole("button", { name: "Not helpful" }).click();
    await first.getByRole("button", { name: "Not helpful", pressed: true }).waitFor();
    const before = await api.annotations.list({ agentId });
    expect(before.status).toBe(200);
    expect(before.body.map((annotation) => annotation.sentiment)).toEqual(["bad"]);

    await page.reload();
    await page.getByRole("button", { name: "Open chat" }).click();
    const reloaded = page.getByRole("log");
    await reloaded.getByText("Neither.").waitFor();
    const ratedAgain = reloaded.locator(".msg.agent", { hasText: "No, only on weekdays." });
    const notHelpful = ratedAgain.getByRole("button", { name: "Not helpful" });
    const helpful = ratedAgain.getByRole("button", { name: "Helpful", exact: true });
    expect(await notHelpful.getAttribute("aria-pressed")).toBe("true");
    expect(await helpful.getAttribute("aria-pressed")).toBe("false");
    expect(await notHelpful.isDisabled()).toBe(true);
    expect(await helpful.isDisabled()).toBe(true);
    // The other answer was not rated: its buttons are as they were.
    const unrated = reloaded.locator(".msg.agent", { hasText: "Neither." });
    expect(await unrated.getByRole("button", { pressed: true }).count()).toBe(0);
    expect(await unrated.getByRole("button", { name: "Helpful", exact: true }).isEnabled()).toBe(
      true,
    );
    expect((await api.annotations.list({ agentId })).body).toHaveLength(1);
  });
});
