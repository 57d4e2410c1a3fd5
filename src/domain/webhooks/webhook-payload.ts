import type { Source } from "../query/query-knowledge.ts";
import type { QueryUsage } from "../query/query-request.ts";

export type AnswerPart = { id: string; text: string; createdAt: Date };

/** The spec's agent.response body (Events: Webhook), serialized once and sent as is. */
export function successPayload(input: {
  conversationId: string;
  visitorId: string;
  parts: readonly AnswerPart[];
  answer: string;
  sources: Source[];
  usage: QueryUsage;
  metadata: Record<string, unknown>;
}): string {
  return JSON.stringify({
    conversationId: input.conversationId,
    visitorId: input.visitorId,
    status: "success",
    messages: input.parts.map((part) => ({
      id: part.id,
      text: part.text,
      createdAt: part.createdAt.toISOString(),
    })),
    agentResponse: {
      answer: input.answer,
      sources: input.sources,
      usage: input.usage,
      metadata: input.metadata,
    },
    messageId: input.parts[0]?.id ?? null,
  });
}

/**
 * The body sent when no answer could be generated. It keeps the success body's keys (empty
 * messages, null agentResponse and messageId) so a receiver written for the spec's example does
 * not break, and says what went wrong in `error`.
 */
export function errorPayload(input: {
  conversationId: string;
  visitorId: string;
  inputMessageIds: readonly string[];
  error: { type: string; message: string };
}): string {
  return JSON.stringify({
    conversationId: input.conversationId,
    visitorId: input.visitorId,
    status: "error",
    error: input.error,
    inputMessageIds: input.inputMessageIds,
    messages: [],
    agentResponse: null,
    messageId: null,
  });
}
