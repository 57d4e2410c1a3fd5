import { z } from "zod";
import { ENTITY_GROUPS } from "../../../domain/billing/consumption-summary-request.ts";
import { isoInstant } from "../../../lib/iso-instant.ts";

const filterId = z.string().trim().min(1).max(200);

export const eventListQuery = z.object({
  startDate: isoInstant.optional(),
  endDate: isoInstant.optional(),
  agentId: filterId.optional(),
  feature: filterId.optional(),
  provider: filterId.optional(),
  model: filterId.optional().describe("Filter by model name"),
  conversationId: filterId.optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  orderBy: z
    .enum(["occurredAt_asc", "occurredAt_desc", "creditsCharged_asc", "creditsCharged_desc"])
    .default("occurredAt_desc"),
});

const summaryAmounts = {
  totalCreditsCharged: z.number(),
  totalInputTokens: z.number().int(),
  totalOutputTokens: z.number().int(),
  eventCount: z.number().int(),
};

const consumptionEventSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  agentId: z.string().nullable(),
  feature: z.string(),
  provider: z.string(),
  modelName: z.string(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  units: z.number().nullable(),
  creditsCharged: z.number(),
  creditsChargedRaw: z.number(),
  billingCoefficient: z.number(),
  occurredAt: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  conversationId: z.string().nullable(),
  messageId: z.string().nullable(),
  agent: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
});

export const eventListResponse = z.object({
  data: z.array(consumptionEventSchema),
  pagination: z.object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  }),
});

export const summaryResponse = z.object({
  groupBy: z.string(),
  stackBy: z.enum(ENTITY_GROUPS).optional().describe("Extension: only when asked for"),
  startDate: z.string(),
  endDate: z.string(),
  data: z.array(
    z.object({
      groupKey: z.string().nullable(),
      agentName: z.string().nullable().optional().describe("Only when groupBy is agent"),
      ...summaryAmounts,
      stacks: z
        .array(
          z.object({
            stackKey: z.string().nullable(),
            agentName: z.string().nullable().optional().describe("Only when stackBy is agent"),
            ...summaryAmounts,
          }),
        )
        .optional()
        .describe(
          "Extension, only with stackBy: the period's amounts by that key, most credits first; they add up to the period's",
        ),
    }),
  ),
});
