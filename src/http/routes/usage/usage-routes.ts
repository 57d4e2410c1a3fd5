import { z } from "zod";
import type { UsageIncrementService } from "../../../domain/billing/usage-increment-service.ts";
import {
  INCREMENT_MODELS,
  INCREMENT_PROVIDERS,
  isIncrementModel,
} from "../../../domain/billing/usage-models.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

export type UsageRouteDeps = { usage: UsageIncrementService };

// Token counts are stored as 32-bit integers; a billion tokens is far beyond any single call.
const tokenCount = z.number().int().min(0).max(1_000_000_000).default(0);

const incrementBody = z
  .object({
    provider: z.enum(INCREMENT_PROVIDERS),
    modelName: z.string().min(1).max(200),
    inputTokens: tokenCount,
    outputTokens: tokenCount,
    coefficient: z.number().int().min(1).max(10).default(1),
    feature: z.string().trim().min(1).max(100).default("agent_run"),
    agentId: z.string().trim().min(1).max(200).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((body, context) => {
    if (!isIncrementModel(body.provider, body.modelName)) {
      context.addIssue({
        code: "custom",
        path: ["modelName"],
        message: `is not a model of provider ${body.provider}; expected one of ${INCREMENT_MODELS[body.provider].join(", ")}`,
      });
    }
  });

const incrementResponse = z.object({
  success: z.boolean(),
  organizationId: z.string(),
  eventId: z.string(),
  credits: z.object({ charged: z.number(), requested: z.number() }),
  model: z.object({ provider: z.string(), modelName: z.string() }),
  tokens: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
});

/** POST /api/usage/increment-agent-queries: credit spend reported by custom integrations. */
export function registerUsageRoutes(app: App, deps: UsageRouteDeps): void {
  app.post(
    "/api/usage/increment-agent-queries",
    {
      config: { auth: "key", permission: "query" },
      schema: {
        operationId: "incrementAgentQueries",
        tags: ["usage"],
        summary: "Record credit spend; 402 when the organization cannot run",
        headers: z.looseObject({
          "idempotency-key": z
            .string()
            .trim()
            .min(1)
            .max(255)
            .optional()
            .describe("A retried request with the same key is charged once and answered the same"),
        }),
        body: incrementBody,
        response: { 200: incrementResponse },
        errors: {
          402: "Usage limit: the organization cannot run now (type USAGE_LIMIT)",
          409: "The Idempotency-Key was already used with a different body",
        },
      },
    },
    async (request) =>
      deps.usage.increment(
        callerOf(request),
        request.body,
        request.headers["idempotency-key"] as string | undefined,
      ),
  );
}
