import { z } from "zod";
import type { BillingService } from "../../../domain/billing/billing-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

export type CreditRouteDeps = { billing: Pick<BillingService, "balance"> };

const balanceResponse = z.object({
  billingModel: z.enum(["credits", "legacy"]),
  credits: z.object({ total: z.number(), used: z.number(), remaining: z.number() }).nullable(),
  canRun: z.boolean(),
  blockReason: z
    .enum(["payment_overdue", "no_credits", "query_limit", "free_plan_limit"])
    .nullable(),
  freePlan: z
    .object({ included: z.number(), used: z.number(), remaining: z.number() })
    .nullable()
    .describe(
      "Extension: on the free plan (no credits granted yet), its included agent messages: " +
        "how many, used and left; null otherwise",
    ),
});

/**
 * GET /api/credits/balance. Meant for servers: no CORS headers, and no HEAD route, so every
 * method but GET reaches the JSON 404 handler.
 */
export function registerCreditRoutes(app: App, deps: CreditRouteDeps): void {
  app.get(
    "/api/credits/balance",
    {
      exposeHeadRoute: false,
      config: { auth: "key", refusal: "forbidden-text", permission: "usage:read" },
      schema: {
        operationId: "getCreditBalance",
        tags: ["usage"],
        summary: "Credit balance, canRun and blockReason (403 text/plain Forbidden without a key)",
        response: { 200: balanceResponse },
      },
    },
    async (request) => deps.billing.balance(callerOf(request).organizationId),
  );
}
