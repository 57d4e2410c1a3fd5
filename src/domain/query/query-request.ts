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

const queryUsage = z.object({
  completionTokens: z.number().int(),
  promptTokens: z.number().int(),
  totalTokens: z.number().int(),
  cost: z.number(),
});

export type QueryUsage = z.output<typeof queryUsage>;

/**
 * What every answer says, to whoever asked: its text, sources, ids and the conversation's state.
 * The public chat's visitors see only this.
 */
export const answerCore = z.object({
  answer: z.string(),
  sources: z.array(z.object({ source: z.string(), chunk: z.string() })),
  messageId: z.string(),
  conversationId: z.string(),
  visitorId: z.string(),
  request_human: z.boolean(),
  status: z.string(),
});

/** The spec's non-streaming response (and the `endpoint_response` frame). */
const answeredQueryResponse = answerCore.extend({
  usage: queryUsage,
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
        usage: queryUsage.optional(),
        error: z.string().optional(),
      }),
    )
    .optional()
    .describe("Extension (enableModelComparison): the comparison models' answers"),
});

export type QueryResponse = z.output<typeof answeredQueryResponse>;

/** The spec's webhook (conversational) mode response, returned at once. */
const queuedQueryResponse = z.object({
  status: z.literal("queued"),
  conversationId: z.string(),
  visitorId: z.string(),
  inputMessageId: z.string(),
  message: z.string(),
  webhookUrl: z.string(),
});

export type QueuedQueryResponse = z.output<typeof queuedQueryResponse>;

/** The answer of POST /api/agents/{agentId}/query: an answer, or queued in conversational mode. */
export const queryResponse = z.union([answeredQueryResponse, queuedQueryResponse]);
