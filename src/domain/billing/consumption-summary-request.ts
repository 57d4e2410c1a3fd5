import { z } from "zod";
import { isoInstant } from "../../lib/iso-instant.ts";

/** The keys a summary groups by: an entity, or a period. */
export const ENTITY_GROUPS = ["agent", "feature", "provider", "model"] as const;
export const TEMPORAL_GROUPS = ["day", "week", "month"] as const;
export type EntityGroup = (typeof ENTITY_GROUPS)[number];
export type SummaryGroupBy = EntityGroup | (typeof TEMPORAL_GROUPS)[number];

const filterId = z.string().trim().min(1).max(200);

/** GET /api/consumption-events/summary's query. */
export const summaryQuery = z.object({
  startDate: isoInstant,
  endDate: isoInstant,
  groupBy: z.enum([...ENTITY_GROUPS, ...TEMPORAL_GROUPS]),
  agentId: filterId.optional(),
  feature: filterId.optional(),
  provider: filterId.optional(),
  stackBy: z
    .enum(ENTITY_GROUPS)
    .optional()
    .describe(
      "Extension: with groupBy day, week or month, each period is also split by this key (its `stacks`), e.g. credits by day stacked by agent",
    ),
});
