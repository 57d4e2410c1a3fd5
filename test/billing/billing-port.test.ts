import { describe, expect } from "vitest";
import { AppError } from "../../src/lib/errors.ts";
import type { TestApp } from "../harness/app.ts";
import type { Untyped } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { balanceOf, bucketsOf, grantCredits, insertAgent, setBilling } from "./billing-helpers.ts";

const test = appTest({ offline: true }).extend(
  "billing",
  { scope: "file" },
  ({ app }) => app.runtime.services.billing,
);

async function eventById(
  app: TestApp,
  organizationAuth: { authorization: string },
  eventId: string,
) {
  const response = await app.client(organizationAuth).consumptionEvents.list({ limit: 100 });
  const body: Untyped = response.body;
  return body.data.find((event: { id: string }) => event.id === eventId);
}

describe("the Billing port metered features call", () => {
  test("charge prices a chat answer with the registry's price and links it to the conversation", async ({
    app,
    billing,
  }) => {
    const org = await app.createOrganization("Chat");
    await grantCredits(app, org.id, 10);
    const agentId = await insertAgent(app, org.id, "Chatty");
    // gpt-4o: 2.50 credits per million input tokens, 10.00 per million output tokens.
    const result = await billing.charge({
      organizationId: org.id,
      agentId,
      feature: "chat",
      provider: "openai",
      modelName: "gpt-4o",
      inputTokens: 1_200,
      outputTokens: 300,
      conversationId: "conversation-1",
      messageId: "message-1",
      metadata: { modelName: "gpt_4o" },
    });
    expect(result).toEqual({
      eventId: expect.any(String),
      creditsCharged: 0.006,
      creditsRequested: 0.006,
    });
    expect(await eventById(app, org.auth, result.eventId)).toMatchObject({
      feature: "chat",
      inputTokens: 1_200,
      outputTokens: 300,
      creditsCharged: 0.006,
      conversationId: "conversation-1",
      messageId: "message-1",
      metadata: { modelName: "gpt_4o" },
      agent: { id: agentId, name: "Chatty" },
    });
    expect((await balanceOf(app, org)).credits?.remaining).toBe(9.994);
  });

  test("prices transcription per second of audio and embeddings per million tokens", async ({
    app,
    billing,
  }) => {
    const org = await app.createOrganization("Media");
    await grantCredits(app, org.id, 10);
    const audio = await billing.charge({
      organizationId: org.id,
      feature: "transcription",
      provider: "openai",
      modelName: "whisper-1",
      inputTokens: 0,
      outputTokens: 0,
      units: 90,
    });
    expect(audio.creditsCharged).toBe(0.009);
    expect((await eventById(app, org.auth, audio.eventId)).units).toBe(90);
    const embeddings = await billing.charge({
      organizationId: org.id,
      feature: "embeddings",
      provider: "openai",
      modelName: "text-embedding-3-small",
      inputTokens: 2_000_000,
      outputTokens: 0,
    });
    expect(embeddings.creditsCharged).toBe(0.04);
  });

  test("the offline responder and unknown models are recorded at 0 credits", async ({
    app,
    billing,
  }) => {
    const org = await app.createOrganization("Free models");
    await grantCredits(app, org.id, 1);
    for (const [provider, modelName] of [
      ["local", "local-extractive"],
      ["openai", "no-such-model"],
    ] as const) {
      const result = await billing.charge({
        organizationId: org.id,
        feature: "chat",
        provider,
        modelName,
        inputTokens: 5_000,
        outputTokens: 5_000,
      });
      expect(result.creditsCharged).toBe(0);
      expect(await eventById(app, org.auth, result.eventId)).toMatchObject({ provider, modelName });
    }
  });

  test("applies a coefficient: raw before it, charged after it", async ({ app, billing }) => {
    const org = await app.createOrganization("Coefficient");
    await grantCredits(app, org.id, 1);
    const result = await billing.charge({
      organizationId: org.id,
      feature: "follow_up",
      provider: "openai",
      modelName: "gpt-4o-mini",
      inputTokens: 1_000_000,
      outputTokens: 0,
      coefficient: 2,
    });
    expect(result.creditsCharged).toBe(0.3);
    expect(await eventById(app, org.auth, result.eventId)).toMatchObject({
      creditsChargedRaw: 0.15,
      creditsCharged: 0.3,
      billingCoefficient: 2,
    });
  });

  test("assertCanRun and access agree with the balance endpoint", async ({ app, billing }) => {
    const org = await app.createOrganization("Gate");
    await expect(billing.assertCanRun(org.id)).resolves.toBeUndefined();
    for (let message = 0; message < 5; message += 1) {
      await billing.charge({
        organizationId: org.id,
        feature: "chat",
        provider: "local",
        modelName: "local-extractive",
        inputTokens: 10,
        outputTokens: 10,
      });
    }
    const error = await billing.assertCanRun(org.id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ type: "USAGE_LIMIT", status: 402 });
    expect(await balanceOf(app, org)).toMatchObject({
      canRun: false,
      blockReason: "free_plan_limit",
    });
    await setBilling(app, org.id, { subscriptionStatus: "past_due" });
    expect(await balanceOf(app, org)).toMatchObject({
      canRun: false,
      blockReason: "payment_overdue",
    });
    await expect(billing.assertCanRun(org.id)).rejects.toMatchObject({
      type: "USAGE_LIMIT",
      details: [{ path: "blockReason", message: "payment_overdue" }],
    });
  });

  test("charge never refuses: usage after the fact is recorded even when nothing is left", async ({
    app,
    billing,
  }) => {
    const org = await app.createOrganization("After the fact");
    await grantCredits(app, org.id, 0.1);
    const first = await billing.charge({
      organizationId: org.id,
      feature: "chat",
      provider: "openai",
      modelName: "gpt-4o-mini",
      inputTokens: 1_000_000,
      outputTokens: 0,
    });
    expect(first).toMatchObject({ creditsCharged: 0.1, creditsRequested: 0.15 });
    const second = await billing.charge({
      organizationId: org.id,
      feature: "chat",
      provider: "openai",
      modelName: "gpt-4o-mini",
      inputTokens: 1_000_000,
      outputTokens: 0,
    });
    expect(second).toMatchObject({ creditsCharged: 0, creditsRequested: 0.15 });
    expect((await balanceOf(app, org)).credits).toEqual({ total: 0.1, used: 0.1, remaining: 0 });
  });
  test("charges the metered cost without a debit unless credit buckets fund the organization", async ({
    app,
    billing,
  }) => {
    const usage = (organizationId: string) =>
      billing.charge({
        organizationId,
        feature: "chat",
        provider: "openai",
        modelName: "gpt-4o-mini",
        inputTokens: 1_000_000,
        outputTokens: 0,
      });
    const free = await app.createOrganization("Free plan");
    expect(await usage(free.id)).toMatchObject({ creditsCharged: 0.15, creditsRequested: 0.15 });

    const legacy = await app.createOrganization("Legacy with a grant");
    await grantCredits(app, legacy.id, 1);
    await setBilling(app, legacy.id, { billingModel: "legacy" });
    expect(await usage(legacy.id)).toMatchObject({ creditsCharged: 0.15 });
    expect((await bucketsOf(app, legacy.id)).map((bucket) => bucket.remainingMicro)).toEqual([
      1_000_000,
    ]);

    const expired = await app.createOrganization("Only an expired grant");
    await grantCredits(app, expired.id, 1, "2001-01-01T00:00:00.000Z");
    expect(await usage(expired.id)).toMatchObject({ creditsCharged: 0, creditsRequested: 0.15 });
    expect((await bucketsOf(app, expired.id))[0]?.remainingMicro).toBe(1_000_000);
  });

  test("charge refuses an organization that does not exist and writes nothing", async ({
    billing,
  }) => {
    await expect(
      billing.charge({
        organizationId: "no-such-organization",
        feature: "chat",
        provider: "openai",
        modelName: "gpt-4o-mini",
        inputTokens: 1,
        outputTokens: 0,
      }),
    ).rejects.toMatchObject({ type: "NOT_FOUND" });
  });
});
