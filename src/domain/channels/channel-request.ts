import { z } from "zod";
import { CHANNEL_TYPES } from "../../db/schema/index.ts";

export { CHANNEL_TYPES, DELIVERY_STATUSES } from "../../db/schema/index.ts";

/** POST /api/agents/{agentId}/channels; `config` is checked by the type's adapter. */
export const channelCreationSchema = z.object({
  type: z.enum(CHANNEL_TYPES),
  name: z.string().trim().min(1).max(200).optional(),
  config: z
    .record(z.string(), z.unknown())
    .describe("The platform's settings (docs/channels.md); credentials are write-only"),
});

/** PATCH /api/channels/{id}: `config` fields replace the ones given, the rest are kept. */
export const channelChangesSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  enabled: z.boolean().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
});

export type ChannelCreation = z.output<typeof channelCreationSchema>;
export type ChannelChanges = z.output<typeof channelChangesSchema>;
