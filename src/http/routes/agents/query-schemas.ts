import { z } from "zod";
import {
  channelSchema,
  clientIdSchema,
  contactSchema,
  messageText,
} from "../../../domain/query/query-request.ts";

// The query body is defined with the domain type it validates (QueryRequest).
export { clientIdSchema, queryBody } from "../../../domain/query/query-request.ts";

const usageSchema = z.object({
  completionTokens: z.number().int(),
  promptTokens: z.number().int(),
  totalTokens: z.number().int(),
  cost: z.number(),
});

export const queryResponse = z.union([
  z.object({
    answer: z.string(),
    sources: z.array(z.object({ source: z.string(), chunk: z.string() })),
    messageId: z.string(),
    conversationId: z.string(),
    visitorId: z.string(),
    request_human: z.boolean(),
    status: z.string(),
    usage: usageSchema,
    approvals: z.array(z.unknown()),
  }),
  z.object({
    status: z.literal("queued"),
    conversationId: z.string(),
    visitorId: z.string(),
    inputMessageId: z.string(),
    message: z.string(),
    webhookUrl: z.string(),
  }),
]);

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

export const queryAgentResponse = z.object({
  messageId: z.string(),
  conversationId: z.string(),
  visitorId: z.string(),
  status: z.string(),
});
