import { describe, expect } from "vitest";
import type { TestOrganization } from "../harness/app.ts";
import { unchecked } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true, orgName: "Tuned", funded: false });

let stranger: TestOrganization;
test.beforeAll(async ({ app }) => {
  stranger = await app.createOrganization("Stranger");
});

const path = (field: string) => `body.retrievalEvaluationConfig.${field}`;

describe("retrievalEvaluationConfig fields that are refused with 400", () => {
  test.for([
    ["not an object", "rounds", "body.retrievalEvaluationConfig"],
    ["unknown evaluator model", { evaluatorModelName: "gpt-4o" }, path("evaluatorModelName")],
    ["unknown retrieval model", { retrievalModelName: "gpt_5" }, path("retrievalModelName")],
    ["unknown generation model", { generationModelName: "" }, path("generationModelName")],
    ["zero rounds", { retrievalRounds: 0 }, path("retrievalRounds")],
    ["too many rounds", { retrievalRounds: 6 }, path("retrievalRounds")],
    ["fractional rounds", { retrievalRounds: 1.5 }, path("retrievalRounds")],
    ["threshold above 1", { evaluationThreshold: 7 }, path("evaluationThreshold")],
    ["threshold below 0", { evaluationThreshold: -0.1 }, path("evaluationThreshold")],
    ["fallback not a model", { fallbackModels: ["gpt_4o", "mystery"] }, path("fallbackModels.1")],
    ["fallback repeated", { fallbackModels: ["gpt_4o", "gpt_4o"] }, path("fallbackModels")],
    ["comparison not a list", { comparisonModels: "gpt_4o" }, path("comparisonModels")],
    ["comparison flag as text", { enableModelComparison: "yes" }, path("enableModelComparison")],
    [
      "temperature too high",
      { modelTemperatures: { gpt_4o: 5 } },
      path("modelTemperatures.gpt_4o"),
    ],
    ["temperature of no model", { modelTemperatures: { turbo: 1 } }, path("modelTemperatures")],
    ["max tokens zero", { modelMaxTokens: { gpt_4o: 0 } }, path("modelMaxTokens.gpt_4o")],
    ["max tokens as text", { modelMaxTokens: { gpt_4o: "many" } }, path("modelMaxTokens.gpt_4o")],
    ["topP above 1", { additionalConfig: { topP: 2 } }, path("additionalConfig.topP")],
    ["seed as text", { additionalConfig: { seed: "x" } }, path("additionalConfig.seed")],
    ["evaluator prompt not text", { evaluatorPrompt: 3 }, path("evaluatorPrompt")],
  ] as const)("%s", async ([_label, retrievalEvaluationConfig, field], { api }) => {
    const response = await api.agents.create(unchecked({ name: "a", retrievalEvaluationConfig }));
    expect(response.status).toBe(400);
    expect(response.error.type).toBe("INVALID_REQUEST");
    expect(response.error.details?.map((detail) => detail.path)).toContain(field);
  });

  test("names the valid model names in the message", async ({ api, agent }) => {
    const response = await api.agents.update(
      agent.id,
      unchecked({ retrievalEvaluationConfig: { fallbackModels: ["x"] } }),
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.error.details)).toContain("gpt_4o_mini");
    const stored = await api.agents.get(agent.id);
    expect(stored.body.retrievalEvaluationConfig).toEqual({});
  });
});

describe("retrievalEvaluationConfig that is accepted", () => {
  test("stores every field and keeps unknown keys as sent", async ({ api, agent }) => {
    const retrievalEvaluationConfig = {
      evaluatorPrompt: "Judge.",
      generateQueryPrompt: "Rewrite.",
      evaluatorModelName: "gpt_41_mini",
      retrievalRounds: 3,
      evaluationThreshold: 0.4,
      additionalConfig: { topP: 0.5, providerOptions: { openai: { user: "u1" } }, depth: 3 },
      retrievalModelName: "gpt_41_nano",
      generationModelName: "gpt_41",
      fallbackModels: ["gpt_4o", "claude_4_sonnet"],
      modelTemperatures: { gpt_41: 0.2 },
      modelMaxTokens: { gpt_41: 800 },
      enableModelComparison: true,
      comparisonModels: ["gpt_4o_mini"],
      notes: "kept",
    } satisfies Record<string, unknown>;
    const updated = await api.agents.update(
      agent.id,
      unchecked({ useSuperRetrieval: true, retrievalEvaluationConfig }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.retrievalEvaluationConfig).toEqual(retrievalEvaluationConfig);
    const read = await api.agents.get(agent.id);
    expect(read.body).toMatchObject({ useSuperRetrieval: true, retrievalEvaluationConfig });
  });

  test("answers 404 for another organization's agent, whatever the config", async ({
    app,
    api,
    agent,
  }) => {
    const response = await app
      .client(stranger.auth)
      .agents.update(agent.id, { retrievalEvaluationConfig: { retrievalRounds: 2 } });
    expect(response.status).toBe(404);
    const read = await api.agents.get(agent.id);
    expect(read.body.retrievalEvaluationConfig).not.toEqual({ retrievalRounds: 2 });
  });
});
