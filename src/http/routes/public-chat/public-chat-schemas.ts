import { z } from "zod";
import { clientIdSchema, messageText } from "../../../domain/conversations/message-fields.ts";

/**
 * The answer as a visitor sees it: the text, its sources and the ids the widget needs. Nothing
 * about models, usage, costs or comparisons: those are the organization's, not the public's.
 */
export const publicChatResponse = z.object({
  answer: z.string(),
  sources: z.array(z.object({ source: z.string(), chunk: z.string() })),
  messageId: z.string(),
  conversationId: z.string(),
  visitorId: z.string(),
  request_human: z.boolean(),
  status: z.string(),
});

/** The public answer's fields of a query's response, for JSON and the stream's endpoint_response. */
export function toPublicAnswer(answer: z.input<typeof publicChatResponse>) {
  const { answer: text, sources, messageId, conversationId, visitorId, status } = answer;
  return {
    answer: text,
    sources: sources.map(({ source, chunk }) => ({ source, chunk })),
    messageId,
    conversationId,
    visitorId,
    request_human: answer.request_human,
    status,
  };
}

/** A visitor's verdict as stored: the ids, the verdict and its times, nothing of the organization. */
export const publicAnnotationResponse = z.object({
  id: z.string(),
  messageId: z.string(),
  conversationId: z.string(),
  sentiment: z.string(),
  comment: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const publicAgentParams = z.object({ agentId: z.string().min(1).max(200) });

export const publicConversationParams = publicAgentParams.extend({
  conversationId: clientIdSchema,
});

/** Chosen by the browser once and kept (localStorage): it binds the visitor's conversations. */
const visitorIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 characters of A-Z, a-z, 0-9, _ and -")
  .describe("The browser's own random id for this visitor, kept across page loads");

export const visitorQuery = z.strictObject({ visitorId: visitorIdSchema });

export const publicAnswerParams = publicConversationParams.extend({
  messageId: z.string().min(1).max(64),
});

/** A visitor's verdict on an answer: the widget's "Helpful" and "Not helpful". */
export const publicAnnotationBody = z.strictObject({
  visitorId: visitorIdSchema,
  sentiment: z.enum(["good", "bad"]),
  comment: z
    .string()
    .trim()
    .min(1)
    .max(2_000)
    .optional()
    .describe("What the visitor wrote; without it the annotation says which button was used"),
});

/**
 * A visitor's message. Strict: the query endpoint's other fields (systemPrompt, attachments,
 * contact, channel, context…) are refused with 400, never ignored.
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

export const publicAgentResponse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  iconUrl: z.string().nullable(),
});

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
