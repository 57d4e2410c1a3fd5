import { z } from "zod";
import { intVar, optionalString } from "./env-types.ts";

export const webhooksEnvSchema = z.object({
  WEBHOOK_BATCH_DELAY_MS: intVar(8_000, 0, 600_000).describe(
    "Batching window of conversational mode: each new message of a conversation extends it",
  ),
  WEBHOOK_SIGNING_SECRET: optionalString().describe(
    'Signs every webhook: X-Service-Signature: sha256=<hex HMAC of "timestamp.body">',
  ),
  WEBHOOK_TIMEOUT_MS: intVar(10_000, 100, 60_000).describe(
    "Time a webhook receiver has to answer one delivery attempt",
  ),
  WEBHOOK_PROBE_TIMEOUT_MS: intVar(5_000, 100, 30_000).describe(
    "Time a webhookUrl has to answer the reachability probe of a query",
  ),
  WEBHOOK_RETRY_BASE_MS: intVar(60_000, 10, 3_600_000).describe(
    "Delay before the first retry; each later retry waits twice as long as the one before",
  ),
  WEBHOOK_MAX_ATTEMPTS: intVar(7, 1, 20).describe(
    "Delivery attempts before a webhook is given up (7 with the default base: about an hour)",
  ),
});

export function webhooksConfig(env: z.output<typeof webhooksEnvSchema>) {
  return {
    batchDelayMs: env.WEBHOOK_BATCH_DELAY_MS,
    signingSecret: env.WEBHOOK_SIGNING_SECRET,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    probeTimeoutMs: env.WEBHOOK_PROBE_TIMEOUT_MS,
    retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
  };
}

export type WebhooksConfig = ReturnType<typeof webhooksConfig>;
