import { describe, expect, onTestFinished } from "vitest";
import {
  answerFinished,
  hasChromium,
  visitor,
  waitForMessageText,
  widgetTest,
} from "./widget-fixtures.ts";

// Two messages a minute per visitor: each test's visitor is new, the limit test sends a third.
const test = widgetTest({ env: { PUBLIC_CHAT_RATE_LIMIT_PER_MINUTE: "2" } });

type Fake = { requests: Array<{ path: string }> };
const requestsTo = (fake: Fake, path: string) =>
  fake.requests.filter((request) => request.path === path);

describe.skipIf(!hasChromium)("who may use the widget, and how", () => {
  test("a private agent's id shows an error and gets no answer", async ({
    browser,
    host,
    api,
    fake,
  }) => {
    const created = await api.agents.create({ name: "Internal", modelName: "gpt_4o_mini" });
    expect(created.status).toBe(201);
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId: created.body.id }));
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("alert").getByText("This chat is not available.").waitFor();
    expect(await dialog.textContent()).not.toContain("Internal");
    expect(await dialog.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
    expect(await dialog.getByRole("textbox", { name: "Message" }).isDisabled()).toBe(true);
    expect(requestsTo(fake, "/v1/chat/completions")).toEqual([]);
  });

  test("a page outside the agent's allowedOrigins is refused", async ({
    app,
    browser,
    host,
    api,
    fake,
  }) => {
    const created = await api.agents.create({
      name: "Shop only",
      modelName: "gpt_4o_mini",
      visibility: "public",
      allowedOrigins: ["https://shop.example"],
    });
    expect(created.status).toBe(201);
    // What the browser is told (CORS failures are not shown to the page's script).
    const refused = await app.api.inject({
      method: "GET",
      url: `/api/public/agents/${created.body.id}`,
      headers: { origin: host.origin },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();

    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId: created.body.id }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await page.getByRole("dialog").getByText("This chat is not available.").waitFor();
    expect(await page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
    expect(requestsTo(fake, "/v1/chat/completions")).toEqual([]);
  });

  test("works on a page whose Content-Security-Policy allows only the widget's origin", async ({
    browser,
    host,
    api,
    apiUrl,
    fake,
  }) => {
    const created = await api.agents.create({
      name: "Strict shop",
      modelName: "gpt_4o_mini",
      visibility: "public",
      allowedOrigins: [host.origin],
    });
    expect(created.status).toBe(201);
    const { page } = await visitor(browser, onTestFinished);
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(
      host.page({
        agentId: created.body.id,
        data: { color: "#0a7d4f", position: "left" },
        csp: `default-src 'none'; script-src ${apiUrl}; connect-src ${apiUrl}`,
      }),
    );
    const launcher = page.getByRole("button", { name: "Open chat" });
    await launcher.click();
    fake.script({ text: "Yes, under a strict policy too." });
    await page.getByRole("textbox", { name: "Message" }).fill("Does it work here?");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("log").getByText("Yes, under a strict policy too.").waitFor();
    // The adopted stylesheet applies: the launcher has the data-color and sits on the left.
    const background = await launcher.evaluate(
      (element) =>
        (
          globalThis as unknown as {
            getComputedStyle(element: unknown): { backgroundColor: string };
          }
        ).getComputedStyle(element).backgroundColor,
    );
    expect(background).toBe("rgb(10, 125, 79)");
    expect((await launcher.boundingBox())!.x).toBeLessThan(100);
    expect(violations).toEqual([]);
  });

  test("a voice message is recorded, transcribed and put in the Message box", async ({
    browser,
    host,
    api,
    fake,
  }) => {
    const created = await api.agents.create({
      name: "Voice desk",
      modelName: "gpt_4o_mini",
      visibility: "public",
    });
    expect(created.status).toBe(201);
    fake.scriptTranscription({ text: "Where is my parcel?" });
    const { context, page } = await visitor(browser, onTestFinished);
    await context.grantPermissions(["microphone"]);
    await page.goto(host.page({ agentId: created.body.id }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await page.getByRole("button", { name: "Record voice message" }).click();
    const stop = page.getByRole("button", { name: "Stop recording", pressed: true });
    await stop.waitFor();
    // The visitor speaks for a moment (Chromium's fake microphone plays a tone).
    await page.waitForTimeout(1_000);
    const uploaded = page.waitForResponse((response) =>
      response.url().endsWith(`/api/public/agents/${created.body.id}/transcribe-audio`),
    );
    await stop.click();
    const response = await uploaded;
    expect(response.status()).toBe(200);
    expect(response.request().headers()["content-type"]).toMatch(/^multipart\/form-data/);
    expect(await waitForMessageText(page)).toBe("Where is my parcel?");
    expect(requestsTo(fake, "/v1/audio/transcriptions")).toHaveLength(1);
  });

  test("GET /chat/{agentId} is the same chat as a full page", async ({
    browser,
    apiUrl,
    api,
    fake,
  }) => {
    const created = await api.agents.create({
      name: "Full page desk",
      modelName: "gpt_4o_mini",
      visibility: "public",
    });
    expect(created.status).toBe(201);
    const { page } = await visitor(browser, onTestFinished, { width: 375, height: 700 });
    await page.goto(`${apiUrl}/chat/${created.body.id}`);
    const main = page.getByRole("main", { name: "Full page desk" });
    await main.waitFor();
    expect(await page.getByRole("button", { name: "Open chat" }).count()).toBe(0);
    fake.script({ text: "Hello from the full page." });
    await main.getByRole("textbox", { name: "Message" }).fill("Hello?");
    await main.getByRole("textbox", { name: "Message" }).press("Enter");
    await main.getByRole("log").getByText("Hello from the full page.").waitFor();
    await main.getByRole("button", { name: "Helpful", exact: true }).waitFor();
  });

  test("speaks French with data-lang=fr", async ({ browser, host, api }) => {
    const created = await api.agents.create({
      name: "Service client",
      modelName: "gpt_4o_mini",
      visibility: "public",
    });
    expect(created.status).toBe(201);
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId: created.body.id, data: { lang: "fr" } }));
    await page.getByRole("button", { name: "Ouvrir la discussion" }).click();
    const dialog = page.getByRole("dialog", { name: "Service client" });
    await dialog.getByRole("button", { name: "Envoyer" }).waitFor();
    await dialog.getByRole("button", { name: "Enregistrer un message vocal" }).waitFor();
  });

  test("tells the visitor when the rate limit or the model refuses, and keeps the question", async ({
    browser,
    host,
    api,
    fake,
  }) => {
    const created = await api.agents.create({
      name: "Busy desk",
      modelName: "gpt_4o_mini",
      visibility: "public",
    });
    expect(created.status).toBe(201);
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(host.page({ agentId: created.body.id }));
    await page.getByRole("button", { name: "Open chat" }).click();
    const message = page.getByRole("textbox", { name: "Message" });
    const log = page.getByRole("log");

    fake.script({ status: 400, errorMessage: "The model refused" });
    await message.fill("First question");
    await message.press("Enter");
    await page.getByRole("alert").getByText("The message could not be sent").waitFor();
    expect(await message.inputValue()).toBe("First question");
    expect(await log.getByText("First question").count()).toBe(0);

    fake.script({ text: "Second answer." });
    await message.fill("Second question");
    await message.press("Enter");
    await log.getByText("Second answer.").waitFor();
    await answerFinished(log);
    expect(await page.getByRole("alert").isHidden()).toBe(true);

    const modelCalls = requestsTo(fake, "/v1/chat/completions").length;
    await message.fill("Third question");
    await message.press("Enter");
    await page.getByRole("alert").getByText("Too many messages").waitFor();
    expect(await message.inputValue()).toBe("Third question");
    expect(requestsTo(fake, "/v1/chat/completions")).toHaveLength(modelCalls);
  });

  test("GET /chat/{agentId} works for an agent whose allowedOrigins lists the service's own", async ({
    browser,
    apiUrl,
    api,
    fake,
  }) => {
    const created = await api.agents.create({
      name: "Listed desk",
      modelName: "gpt_4o_mini",
      visibility: "public",
      allowedOrigins: [new URL(apiUrl).origin],
    });
    expect(created.status).toBe(201);
    const { page } = await visitor(browser, onTestFinished);
    await page.goto(`${apiUrl}/chat/${created.body.id}`);
    const main = page.getByRole("main", { name: "Listed desk" });
    await main.waitFor();
    fake.script({ text: "Answered on the service's own page." });
    await main.getByRole("textbox", { name: "Message" }).fill("Hello?");
    await main.getByRole("textbox", { name: "Message" }).press("Enter");
    await main.getByRole("log").getByText("Answered on the service's own page.").waitFor();
  });
});
