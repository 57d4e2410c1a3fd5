import { describe, expect } from "vitest";
import { INCREMENT_MODELS } from "../../src/domain/billing/usage-models.ts";
import type { TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { increment, insertAgent, MINI } from "./billing-helpers.ts";

// `org` has 1,000 credits.
const test = appTest({ offline: true, orgName: "Metered" });

let other: TestOrganization;
test.beforeAll(async ({ app }) => {
  other = await app.createOrganization("Other");
});

describe("POST /api/usage/increment-agent-queries: happy path", () => {
  test("charges tokens at the registry price times the coefficient and answers the spec's shape", async ({
    app,
    org,
    api,
  }) => {
    const agentId = await insertAgent(app, org.id, "Support bot");
    const response = await increment(app, org, {
      ...MINI,
      inputTokens: 1_000_000,
      outputTokens: 500_000,
      coefficient: 3,
      agentId,
      metadata: { source: "crm", nested: { a: 1 } },
    });
    expect(response.status).toBe(200);
    const body = response.body;
    // (1M × 0.15 + 0.5M × 0.60) / 1M = 0.45 raw credits, × 3.
    expect(body).toEqual({
      success: true,
      organizationId: org.id,
      eventId: expect.any(String),
      credits: { charged: 1.35, requested: 1.35 },
      model: MINI,
      tokens: { inputTokens: 1_000_000, outputTokens: 500_000 },
    });

    const events = await api.consumptionEvents.list({ agentId });
    const [event] = events.body.data;
    expect(event).toMatchObject({
      id: body.eventId,
      feature: "agent_run",
      provider: "azure",
      modelName: "gpt-4o-mini",
      creditsChargedRaw: 0.45,
      creditsCharged: 1.35,
      billingCoefficient: 3,
      units: null,
      metadata: { source: "crm", nested: { a: 1 } },
      agent: { id: agentId, name: "Support bot" },
    });
  });

  test("defaults tokens to 0, coefficient to 1 and feature to agent_run", async ({ app, org }) => {
    const response = await increment(app, org, { provider: "openai", modelName: "gpt-4.1" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      credits: { charged: 0, requested: 0 },
      tokens: { inputTokens: 0, outputTokens: 0 },
    });
  });

  test("keeps a custom feature", async ({ app, org, api }) => {
    const response = await increment(app, org, {
      ...MINI,
      feature: "crm_summary",
      inputTokens: 10,
    });
    expect(response.status).toBe(200);
    const listed = await api.consumptionEvents.list({ feature: "crm_summary" });
    expect(listed.body.data.map((event: { id: string }) => event.id)).toEqual([
      response.body.eventId,
    ]);
  });

  test("accepts every provider/model pair of the spec, each with a price", async ({ app, org }) => {
    for (const [provider, models] of Object.entries(INCREMENT_MODELS)) {
      for (const modelName of models) {
        const response = await increment(app, org, {
          provider,
          modelName,
          inputTokens: 1_000_000,
          outputTokens: 1_000_000,
        });
        expect(response.status, `${provider} ${modelName}`).toBe(200);
        expect(response.body.credits.requested, `${provider} ${modelName}`).toBeGreaterThan(0);
      }
    }
  });
});

describe("POST /api/usage/increment-agent-queries: bad input", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["missing provider", { modelName: "gpt-4o" }, "body.provider"],
    ["unknown provider", { provider: "anthropic", modelName: "claude-4-sonnet" }, "body.provider"],
    ["model of another provider", { provider: "openai", modelName: "gpt-4o" }, "body.modelName"],
    ["wrong case", { provider: "deepseek", modelName: "deepseek-v3.2" }, "body.modelName"],
    ["missing model", { provider: "azure" }, "body.modelName"],
    ["negative input tokens", { ...MINI, inputTokens: -1 }, "body.inputTokens"],
    ["fractional output tokens", { ...MINI, outputTokens: 1.5 }, "body.outputTokens"],
    ["string tokens", { ...MINI, inputTokens: "10" }, "body.inputTokens"],
    ["coefficient 0", { ...MINI, coefficient: 0 }, "body.coefficient"],
    ["coefficient 11", { ...MINI, coefficient: 11 }, "body.coefficient"],
    ["fractional coefficient", { ...MINI, coefficient: 1.5 }, "body.coefficient"],
    ["metadata not an object", { ...MINI, metadata: ["a"] }, "body.metadata"],
    ["empty feature", { ...MINI, feature: "" }, "body.feature"],
  ];
  for (const [name, body, path] of cases) {
    test(`400 for ${name}`, async ({ app, org }) => {
      const response = await increment(app, org, body);
      expect(response.status).toBe(400);
      expect(response.error.type).toBe("INVALID_REQUEST");
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
    });
  }

  test("400 for an agent of another organization, and nothing is charged", async ({
    app,
    org,
    api,
  }) => {
    const foreignAgent = await insertAgent(app, other.id, "Not yours");
    const response = await increment(app, org, { ...MINI, inputTokens: 5, agentId: foreignAgent });
    expect(response.status).toBe(400);
    expect(response.body.details[0].path).toBe("body.agentId");
    const listed = await api.consumptionEvents.list({ agentId: foreignAgent });
    expect(listed.body.pagination.total).toBe(0);
  });

  test("400 for a body that is not JSON", async ({ api }) => {
    const response = await api.request({
      method: "POST",
      url: "/api/usage/increment-agent-queries",
      headers: { "content-type": "application/json" },
      payload: "{nope",
    });
    expect(response.status).toBe(400);
  });
});

describe("POST /api/usage/increment-agent-queries: security", () => {
  test("401 without a key and with an invalid key", async ({ app }) => {
    for (const headers of [{}, { authorization: "Bearer adk_not-a-key" }]) {
      const response = await app.client(headers).usage.increment(MINI);
      expect(response.status).toBe(401);
      expect(response.error.type).toBe("UNAUTHORIZED");
    }
  });

  test("charges the caller's organization only", async ({ app, api }) => {
    const response = await increment(app, other, { ...MINI, inputTokens: 100 });
    expect(response.body.organizationId).toBe(other.id);
    const mine = await api.consumptionEvents.list({ limit: 100 });
    expect(mine.body.data.map((event: { id: string }) => event.id)).not.toContain(
      response.body.eventId,
    );
  });
});
