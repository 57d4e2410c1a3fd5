import { describe, expect, onTestFinished } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { createDatastore } from "../knowledge/knowledge-helpers.ts";
import {
  consoleTest,
  expectAccessible,
  PHONE,
  runsConsole,
  screenshot,
  signedInPage,
} from "./console-fixtures.ts";

const test = consoleTest();

describe.skipIf(!runsConsole)("the agents' list and settings", () => {
  test("an organization without agents is invited to create one; the form stores every field", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const datastore = await createDatastore(app, org, { name: "Help centre" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/agents`);
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    await page.getByText("No agents yet").waitFor();
    await expectAccessible(page);

    await page.getByRole("link", { name: "Create your first agent" }).click();
    await page.getByRole("heading", { name: "New agent", level: 1 }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Rotterdam Bikes help");
    await page.getByLabel("Description").fill("Answers riders about orders and repairs.");
    await page.getByLabel("Public", { exact: true }).check();
    await page.getByLabel("Handle").fill("rotterdam-bikes");
    await page.getByLabel("Model", { exact: true }).selectOption("gpt_41_mini");
    await page.getByLabel("Temperature", { exact: true }).fill("0.4");
    await page.getByLabel("Raw", { exact: true }).check();
    await page.getByLabel("System prompt").fill("You answer riders of Rotterdam Bikes.");
    await page.getByLabel("User prompt").fill("Question: {query}");
    await page.getByLabel("Help centre").check();
    await page.getByLabel("Super retrieval").check();
    await page.getByLabel("Retrieval rounds").fill("3");
    await page.getByLabel("Evaluation threshold").fill("0.6");
    await page.getByLabel("Answering model").selectOption("gpt_4o");
    await page.getByRole("button", { name: "Add fallback model" }).click();
    await page.getByLabel("Fallback model 1").selectOption("claude_4_sonnet");
    await page.getByRole("button", { name: "Add a model temperature" }).click();
    await page.getByLabel("Temperature 1", { exact: true }).fill("0.2");
    await page.getByLabel("Top P").fill("0.9");
    await page.getByLabel("Send follow-ups").check();
    await page.getByLabel("Follow-up prompt").fill("Ask whether the repair went well.");
    await page.getByLabel("Follow-ups at most").fill("2");
    await page.getByLabel("Delay (hours)").fill("24");
    await page.getByLabel("Conversational mode").check();
    await page.getByLabel("Unavailable message").fill("We are back in a moment.");
    await page.getByLabel("Allowed origins").fill("https://www.rotterdambikes.example");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Create agent" }).click();

    await page.getByRole("status").getByText("Rotterdam Bikes help was created.").waitFor();
    await page.getByRole("heading", { name: "Rotterdam Bikes help", level: 1 }).waitFor();
    const agentId = new URL(page.url()).pathname.split("/")[3]!;
    expect(new URL(page.url()).pathname).toBe(`/console/agents/${agentId}/settings`);
    const stored = await api.agents.get(agentId);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      name: "Rotterdam Bikes help",
      description: "Answers riders about orders and repairs.",
      visibility: "public",
      handle: "rotterdam-bikes",
      modelName: "gpt_41_mini",
      temperature: 0.4,
      promptType: "raw",
      systemPrompt: "You answer riders of Rotterdam Bikes.",
      userPrompt: "Question: {query}",
      tools: [{ type: "datastore", datastoreId: datastore.id }],
      useSuperRetrieval: true,
      retrievalEvaluationConfig: {
        retrievalRounds: 3,
        evaluationThreshold: 0.6,
        generationModelName: "gpt_4o",
        fallbackModels: ["claude_4_sonnet"],
        modelTemperatures: { gpt_4o: 0.2 },
        additionalConfig: { topP: 0.9 },
      },
      useFollowUp: true,
      followUpConfig: {
        prompt: "Ask whether the repair went well.",
        count: 2,
        followUpDelayHours: 24,
      },
      useConversationalMode: true,
      unavailableMessage: "We are back in a moment.",
      allowedOrigins: ["https://www.rotterdambikes.example"],
    });
    // The settings page shows what was stored.
    await expect.poll(() => page.getByLabel("Retrieval rounds").inputValue()).toBe("3");
    expect(await page.getByLabel("Fallback model 1").inputValue()).toBe("claude_4_sonnet");
  });

  test("a member changes a field; a value the API refuses is shown with its message", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const agent = await createAgent(app, org, { name: "Edit me" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/agents`);
    const row = page.getByRole("row", { name: /Edit me/ });
    await row.getByText("gpt_4o_mini").waitFor();
    await row.getByText("Private").waitFor();
    await expectAccessible(page);
    await screenshot(page, "agents-list");

    await row.getByRole("link", { name: "Edit me" }).click();
    await page.getByRole("heading", { name: "Edit me", level: 1 }).waitFor();
    const navigation = page.getByRole("navigation", { name: "Agent" });
    expect(
      await navigation.getByRole("link", { name: "Settings" }).getAttribute("aria-current"),
    ).toBe("page");
    expect(await page.title()).toBe("Settings · Edit me · agentdesk");

    await page.getByLabel("System prompt").fill("Answer in two sentences at most.");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").getByText("Saved. The agent is at version 2.").waitFor();
    expect((await api.agents.get(agent.id)).body).toMatchObject({
      systemPrompt: "Answer in two sentences at most.",
      version: 2,
    });
    await expectAccessible(page);
    await page.evaluate("window.scrollTo(0, 0)");
    await screenshot(page, "agents-edit");

    // JSON the form cannot read is refused before anything is sent.
    await page.getByLabel("Follow-up settings (JSON)").fill("{not json");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page
      .getByRole("alert")
      .getByText("Follow-up settings (JSON) is not valid JSON.")
      .waitFor();
    await page.getByLabel("Follow-up settings (JSON)").fill("");

    await page.getByLabel("Allowed origins").fill("https://shop.example.com/checkout");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page
      .getByRole("alert")
      .getByText(/body\.allowedOrigins\.0 must be an origin/)
      .waitFor();
    expect((await api.agents.get(agent.id)).body.allowedOrigins).toEqual([]);
    // The field the API names says so too.
    expect(await page.getByLabel("Allowed origins").getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page);
  });

  test("a viewer reads the settings and has no control to change them", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const agent = await createAgent(app, org, { name: "Read only", systemPrompt: "Be kind." });
    const { page } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished);
    await page.goto(`${apiUrl}/console/agents`);
    await page.getByRole("link", { name: "Read only" }).waitFor();
    expect(await page.getByRole("link", { name: "New agent" }).count()).toBe(0);

    await page.goto(`${apiUrl}/console/agents/${agent.id}/settings`);
    await page.getByRole("heading", { name: "Read only", level: 1 }).waitFor();
    await page.getByText("You are a viewer in this organization").waitFor();
    expect(await page.getByLabel("System prompt").inputValue()).toBe("Be kind.");
    expect(await page.getByLabel("System prompt").isDisabled()).toBe(true);
    expect(await page.getByLabel("Name", { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Save changes" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete agent" }).count()).toBe(0);
    await expectAccessible(page);

    await page.goto(`${apiUrl}/console/agents/new`);
    await page.getByText("Viewers cannot create agents").waitFor();
    expect(await page.getByRole("button", { name: "Create agent" }).count()).toBe(0);

    await page.goto(`${apiUrl}/console/agents/${agent.id}/versions`);
    await page.getByRole("cell", { name: "Current" }).waitFor();
    expect(await page.getByRole("button", { name: /Restore/ }).count()).toBe(0);
  });

  test("the embed page gives the widget tag and the chat link, and says when the agent is private", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const agent = await createAgent(app, org, { name: "Embedded" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: apiUrl,
    });
    await page.goto(`${apiUrl}/console/agents/${agent.id}/embed`);
    await page.getByRole("heading", { name: "Embed", level: 2 }).waitFor();
    const snippet = `<script src="${apiUrl}/widget.js" data-agent-id="${agent.id}" defer></script>`;
    await page.getByText(snippet, { exact: true }).waitFor();
    await page.getByRole("link", { name: `${apiUrl}/chat/${agent.id}` }).waitFor();
    await page.getByRole("note").getByText("This agent is private").waitFor();
    await expectAccessible(page);

    await page.getByRole("button", { name: "Copy widget snippet" }).click();
    await page.getByRole("status").getByText("Copied").first().waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(snippet);

    await page.getByText("Widget options").click();
    await page.getByLabel("Position").selectOption("left");
    await page
      .getByText(
        `<script src="${apiUrl}/widget.js" data-agent-id="${agent.id}" data-position="left" defer></script>`,
        { exact: true },
      )
      .waitFor();

    await api.agents.update(agent.id, { visibility: "public" });
    await page.reload();
    await page.getByRole("heading", { name: "Embed", level: 2 }).waitFor();
    await page.getByRole("button", { name: "Copy chat link" }).waitFor();
    expect(await page.getByRole("note").count()).toBe(0);
    await screenshot(page, "agents-embed");
  });

  test("versions list the changes; restoring one makes a new version with its fields", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const agent = await createAgent(app, org, { name: "Versioned", systemPrompt: "First words." });
    await api.agents.update(agent.id, { systemPrompt: "Second words." });
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/agents/${agent.id}/versions`);
    await page.getByRole("cell", { name: "Second words." }).waitFor();
    await page.getByRole("cell", { name: "First words." }).waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Restore version 1" }).click();
    await page.getByRole("button", { name: "Restore version 2" }).waitFor();
    expect((await api.agents.get(agent.id)).body).toMatchObject({
      systemPrompt: "First words.",
      version: 3,
    });
  });

  test("on a phone the whole form fits; deleting an agent asks first, then leads back to the list", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const agent = await createAgent(app, org, { name: "Short lived" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "admin", onTestFinished, PHONE);
    await page.goto(`${apiUrl}/console/agents/${agent.id}/settings`);
    await page.getByRole("heading", { name: "Short lived", level: 1 }).waitFor();
    // Every part of the form open, on a phone: nothing wider than the screen.
    await page.getByLabel("Super retrieval").check();
    await page.getByLabel("Compare models").check();
    await page.getByRole("button", { name: "Add fallback model" }).click();
    await page.getByRole("button", { name: "Add a model temperature" }).click();
    await page.getByLabel("Fallback model 1").selectOption("model_route");
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(page);
    await page.getByRole("button", { name: "Delete agent" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Short lived?" });
    await dialog.getByRole("button", { name: "Delete agent" }).click();
    await page.getByRole("status").getByText("Short lived was deleted.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/console/agents");
    expect((await api.agents.get(agent.id)).status).toBe(404);
  });
});
