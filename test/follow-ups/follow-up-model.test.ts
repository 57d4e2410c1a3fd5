import { describe, expect } from "vitest";
import { parseConfig } from "../../src/config/index.ts";
import { resolveFollowUpModel } from "../../src/domain/follow-ups/follow-up-model.ts";
import { createModelRegistry } from "../../src/models/model-registry.ts";
import { createAgent, createFundedOrganization, startQueryTestApp } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import { chatCalls, scriptFollowUp, sendFollowUp } from "./follow-up-helpers.ts";

// `app` runs without any model credentials; `withFollowUpModel` is a second app, its OpenAI models
// pointed at a fake of its own and FOLLOW_UP_MODEL set.
const test = appTest({
  offline: true,
  agent: { followUpConfig: { prompt: "Check in." } },
}).extend("withFollowUpModel", { scope: "file" }, async ({ env }, { onCleanup }) => {
  const service = await startQueryTestApp({ ...env, FOLLOW_UP_MODEL: "openai:gpt-4.1-nano" });
  onCleanup(() => service.close());
  return service;
});

describe("the follow-up agent without any model credentials", () => {
  test("answers from the offline responder, skips the filter it cannot run, and charges nothing", async ({
    app,
    org,
    api,
    agent,
  }) => {
    const response = await sendFollowUp(app, org, agent.id, {
      messages: [{ from: "human", text: "Does the doorbell work with my chime?" }],
    });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({
      filter: null,
      model: "openai:gpt-4o-mini",
      promptSource: "agent",
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
    });
    expect(body.answer).toContain("No language model is configured");
    expect(body.answer).toContain("OPENAI_API_KEY");

    const events = await api.consumptionEvents.list({ feature: "follow_up" });
    expect(events.body.data).toEqual([
      expect.objectContaining({
        provider: "local",
        modelName: "local-extractive",
        creditsCharged: 0,
      }),
    ]);
  });
});

describe("FOLLOW_UP_MODEL", () => {
  test("sends the follow-up to the configured model, whatever the agent's model", async ({
    withFollowUpModel: { app, fake },
  }) => {
    const org = await createFundedOrganization(app);
    const agent = await createAgent(app, org, {
      modelName: "gpt_4o",
      followUpConfig: { prompt: "Check in." },
    });
    scriptFollowUp(fake, {});
    const response = await sendFollowUp(app, org, agent.id, {
      messages: [{ from: "human", text: "Hi" }],
    });
    expect(response.status).toBe(200);
    expect(response.body.model).toBe("openai:gpt-4.1-nano");
    const models = chatCalls(fake.requests).map((request) => request.body?.model);
    expect(models).toEqual(["gpt-4.1-nano", "gpt-4.1-nano"]);
  });

  test("is refused with a message naming the variable when its provider is unknown", () => {
    const config = parseConfig({ FOLLOW_UP_MODEL: "nosuchprovider:model-x" });
    const registry = createModelRegistry(config.models.registry);
    expect(() =>
      resolveFollowUpModel(config.models.followUpModel, registry, config.models.registry),
    ).toThrow(/^FOLLOW_UP_MODEL: "nosuchprovider:model-x" is not a model/);
  });
});
