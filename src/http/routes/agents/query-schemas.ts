import { z } from "zod";
import { CHANNELS } from "../../../domain/conversations/conversation-turns.ts";

const channelMessage = `must be one of: ${CHANNELS.join(", ")}`;
export const channelSchema = z.enum(CHANNELS, { error: channelMessage });

/** Conversation and visitor ids may be chosen by clients: printable ASCII without spaces. */
export const clientIdSchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, "must be 1 to 200 printable characters without spaces");

const messageText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => value.trim() !== "", "must not be empty");

export const contactSchema = z
  .object({
    email: z.email().max(254).optional(),
    phoneNumber: z.string().trim().max(40).optional(),
    firstName: z.string().trim().max(200).optional(),
    lastName: z.string().trim().max(200).optional(),
    userId: z.string().trim().max(200).optional(),
  })
  .describe(
    "CRM contact; an existing contact with the same email, phone number or userId is reused",
  );

export const queryBody = z.object({
  query: messageText(100_000).describe("The user message"),
  streaming: z.boolean().default(false),
  conversationId: clientIdSchema.optional(),
  visitorId: clientIdSchema.optional(),
  channel: channelSchema.optional(),
  context: z.string().max(100_000).optional(),
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
