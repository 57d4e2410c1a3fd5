import { z } from "zod";
import { clientIdSchema } from "../../../domain/conversations/message-fields.ts";
import { visitorIdSchema } from "../../../domain/public-chat/public-chat-request.ts";
import { answerCore } from "../../../domain/query/query-request.ts";

/**
 * The answer as a visitor sees it: the text, its sources and the ids the widget needs. Nothing
 * about models, usage, costs or comparisons: those are the organization's, not the public's.
 */
export const publicChatResponse = answerCore;

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
