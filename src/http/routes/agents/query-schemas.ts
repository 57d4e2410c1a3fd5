import { z } from "zod";

// The request bodies are defined with the domain types they validate (QueryRequest,
// AgentMessageRequest).
export { queryAgentBody } from "../../../domain/conversations/agent-message-request.ts";
export { clientIdSchema } from "../../../domain/conversations/message-fields.ts";
export { queryBody } from "../../../domain/query/query-request.ts";

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
    model: z
      .string()
      .optional()
      .describe("Extension (useSuperRetrieval agents): the model that answered"),
    comparisons: z
      .array(
        z.object({
          model: z.string(),
          answer: z.string().optional(),
          usage: usageSchema.optional(),
          error: z.string().optional(),
        }),
      )
      .optional()
      .describe("Extension (enableModelComparison): the comparison models' answers"),
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

export const queryAgentResponse = z.object({
  messageId: z.string(),
  conversationId: z.string(),
  visitorId: z.string(),
  status: z.string(),
});
