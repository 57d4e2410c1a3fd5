import { z } from "zod";
import { channelSchema, clientIdSchema, contactSchema, messageText } from "./message-fields.ts";

/**
 * The body of POST /api/agents/{id}/query-agent: the route validates with it, the domain reads
 * its type.
 */
export const queryAgentBody = z.object({
  query: messageText(100_000).describe("The agent message text"),
  streaming: z.boolean().default(false),
  conversationId: clientIdSchema.optional(),
  visitorId: clientIdSchema.optional(),
  channel: channelSchema.optional(),
  channelExternalId: z.string().trim().min(1).max(300).optional(),
  isDraft: z.boolean().default(false),
  contactId: z.string().min(1).max(200).optional(),
  contact: contactSchema.optional(),
  metadata: z
    .looseObject({
      contextDataAgents: z.string().max(100_000).optional(),
      channel: channelSchema.optional().describe("Overrides the top-level channel"),
    })
    .optional(),
});

/** The body of POST /api/agents/{id}/query-agent, validated. */
export type AgentMessageRequest = z.infer<typeof queryAgentBody>;
