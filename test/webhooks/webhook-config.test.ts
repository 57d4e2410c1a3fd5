import { describe, expect, test } from "vitest";
import { ConfigError, parseConfig } from "../../src/config/index.ts";

describe("webhook settings", () => {
  test("default to an 8 s window, unsigned deliveries and about an hour of retries", () => {
    expect(parseConfig({}).webhooks).toEqual({
      batchDelayMs: 8_000,
      signingSecret: undefined,
      timeoutMs: 10_000,
      probeTimeoutMs: 5_000,
      retryBaseMs: 60_000,
      maxAttempts: 7,
    });
  });

  test("reads every variable", () => {
    const config = parseConfig({
      WEBHOOK_BATCH_DELAY_MS: "2500",
      WEBHOOK_SIGNING_SECRET: " whsec-1 ",
      WEBHOOK_TIMEOUT_MS: "3000",
      WEBHOOK_PROBE_TIMEOUT_MS: "1500",
      WEBHOOK_RETRY_BASE_MS: "250",
      WEBHOOK_MAX_ATTEMPTS: "5",
    });
    expect(config.webhooks).toEqual({
      batchDelayMs: 2_500,
      signingSecret: "whsec-1",
      timeoutMs: 3_000,
      probeTimeoutMs: 1_500,
      retryBaseMs: 250,
      maxAttempts: 5,
    });
  });

  test.each([
    ["WEBHOOK_BATCH_DELAY_MS", "soon"],
    ["WEBHOOK_BATCH_DELAY_MS", "-1"],
    ["WEBHOOK_TIMEOUT_MS", "0"],
    ["WEBHOOK_MAX_ATTEMPTS", "0"],
    ["WEBHOOK_RETRY_BASE_MS", "1.5"],
  ])("refuses %s=%s with a message naming the variable", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });
});
