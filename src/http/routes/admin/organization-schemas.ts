import { z } from "zod";

/** An organization's billing settings, as the admin API shows them. */
export const billingSettings = z.object({
  id: z.string(),
  name: z.string(),
  billingModel: z.enum(["credits", "legacy"]),
  plan: z.string(),
  subscriptionStatus: z.enum(["active", "past_due", "none"]),
  queryLimit: z.number().int().nullable(),
  conversationRetentionDays: z.number().int().nullable(),
});
