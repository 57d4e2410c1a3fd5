import { z } from "zod";
import { clientIdSchema, messageText } from "../conversations/message-fields.ts";

/** Chosen by the browser once and kept (localStorage): it binds the visitor's conversations. */
export const visitorIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 characters of A-Z, a-z, 0-9, _ and -")
  .describe("The browser's own random id for this visitor, kept across page loads");

/**
 * A visitor's message to a public agent: nothing else of the query endpoint's body. Strict: the
 * query endpoint's other fields (systemPrompt, attachments, contact, channel, context…) are
 * refused with 400, never ignored. The route validates with it, the domain reads its type.
 */
export const publicChatBody = (maxQuestionChars: number) =>
  z.strictObject({
    query: messageText(maxQuestionChars).describe(
      `The visitor's question, at most PUBLIC_CHAT_MAX_QUESTION_CHARS characters (default 2000)`,
    ),
    visitorId: visitorIdSchema,
    conversationId: clientIdSchema
      .optional()
      .describe("Continue this conversation: only one this visitor started here"),
    streaming: z.boolean().default(false),
  });

/** The body of POST /api/public/agents/{agentId}/chat, validated (streaming filled in). */
export type PublicChatRequest = z.output<ReturnType<typeof publicChatBody>>;

/** What a visitor may see of a public agent. */
export const publicAgentResponse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  iconUrl: z.string().nullable(),
});

/** A visitor's own conversation, as the widget shows it again after a reload. */
export const publicConversationResponse = z.object({
  conversationId: z.string(),
  messages: z.array(
    z.object({
      id: z.string(),
      from: z.enum(["human", "agent"]),
      text: z.string(),
      sources: z.array(z.object({ source: z.string(), chunk: z.string() })),
      createdAt: z.string(),
    }),
  ),
});

export type PublicAgentProfile = z.infer<typeof publicAgentResponse>;
export type PublicConversation = z.infer<typeof publicConversationResponse>;
