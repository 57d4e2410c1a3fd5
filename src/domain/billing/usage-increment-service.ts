import { invalid } from "../../lib/errors.ts";
import { sha256Hex } from "../../lib/secrets.ts";
import type { Caller } from "../caller.ts";
import type { BillingAccountRepo } from "./billing-account-repo.ts";
import type { BillingService } from "./billing-service.ts";
import { microToCredits } from "./credits.ts";
import type { IncrementProvider } from "./usage-models.ts";

/** A validated body of POST /api/usage/increment-agent-queries, defaults applied. */
export type UsageIncrement = {
  provider: IncrementProvider;
  modelName: string;
  inputTokens: number;
  outputTokens: number;
  coefficient: number;
  feature: string;
  agentId?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
};

/** JSON with object keys sorted, so equal bodies hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Credit spend reported by custom integrations, charged once per Idempotency-Key. */
export function createUsageIncrementService(deps: {
  billing: Pick<BillingService, "chargeIfAllowed">;
  accounts: Pick<BillingAccountRepo, "agentBelongsTo">;
}) {
  return {
    async increment(caller: Caller, body: UsageIncrement, idempotencyKey?: string) {
      const { organizationId } = caller;
      if (
        body.agentId !== undefined &&
        !(await deps.accounts.agentBelongsTo(organizationId, body.agentId))
      ) {
        throw invalid(`Agent ${body.agentId} not found in this organization`, [
          { path: "body.agentId", message: "is not an agent of this organization" },
        ]);
      }
      const { event } = await deps.billing.chargeIfAllowed(
        {
          organizationId,
          agentId: body.agentId ?? null,
          feature: body.feature,
          provider: body.provider,
          modelName: body.modelName,
          inputTokens: body.inputTokens,
          outputTokens: body.outputTokens,
          coefficient: body.coefficient,
          metadata: body.metadata ?? {},
          apiKeyId: caller.apiKeyId,
        },
        idempotencyKey === undefined
          ? undefined
          : { key: idempotencyKey, requestHash: sha256Hex(canonicalJson(body)) },
      );
      // Built from the stored event alone, so a replay answers exactly what the first call did.
      return {
        success: true,
        organizationId: event.organizationId,
        eventId: event.id,
        credits: {
          charged: microToCredits(event.creditsChargedMicro),
          requested: microToCredits(event.creditsRequestedMicro),
        },
        model: { provider: event.provider, modelName: event.modelName },
        tokens: { inputTokens: event.inputTokens, outputTokens: event.outputTokens },
      };
    },
  };
}

export type UsageIncrementService = ReturnType<typeof createUsageIncrementService>;
