import { z } from "zod";
import { CHANNELS } from "../conversations/conversation-turns.ts";

const channelMessage = `must be one of: ${CHANNELS.join(", ")}`;
export const channelSchema = z.enum(CHANNELS, { error: channelMessage });

/** Conversation and visitor ids may be chosen by clients: printable ASCII without spaces. */
export const clientIdSchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, "must be 1 to 200 printable characters without spaces");

export const messageText = (max: number) =>
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

/** The body of POST /api/agents/{agentId}/query: the route validates with it, the domain reads its type. */
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
