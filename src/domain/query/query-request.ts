import { z } from "zod";
import {
  channelSchema,
  clientIdSchema,
  contactSchema,
  messageText,
} from "../conversations/message-fields.ts";

/**
 * The body of POST /api/agents/{agentId}/query: the route validates with it, the domain reads its
 * type.
 */
export const queryBody = z.object({
  query: messageText(100_000).describe("The user message"),
  streaming: z.boolean().default(false),
  conversationId: clientIdSchema.optional(),
  visitorId: clientIdSchema.optional(),
  channel: channelSchema.optional(),
  context: z.string().max(100_000).optional(),
  /** Replaces the agent's system prompt for this request; "" means no override. */
  systemPrompt: z.string().max(100_000).optional(),
  promptType: z
    .enum(["raw", "customer_support"])
    .optional()
    .describe("Overrides the agent's prompt type for this request (raw: system prompt as written)"),
  webhookUrl: z.string().max(2_048).optional(),
  attachments: z
    .array(z.object({ url: z.url({ protocol: /^https?$/ }).max(2_048) }))
    .max(10)
    .optional(),
  contact: contactSchema.optional(),
});

/** The body of POST /api/agents/{agentId}/query, validated. */
export type QueryRequest = z.infer<typeof queryBody>;
