import type { AgentRow } from "../agents/agent-repo.ts";
import type { AnswerCaller } from "../caller.ts";
import type { ComparisonAnswer } from "./answer-generation.ts";
import type { Source } from "./query-knowledge.ts";
import type { QueryRequest } from "./query-request.ts";

export type QueryUsage = {
  completionTokens: number;
  promptTokens: number;
  totalTokens: number;
  cost: number;
};

/** The spec's non-streaming response (and the `endpoint_response` frame). */
export type QueryResponse = {
  answer: string;
  sources: Source[];
  messageId: string;
  conversationId: string;
  visitorId: string;
  request_human: boolean;
  status: string;
  usage: QueryUsage;
  approvals: unknown[];
  /** Extension, for agents with useSuperRetrieval: the model that answered (a fallback, maybe). */
  model?: string;
  /** Extension: the comparison models' answers (enableModelComparison). */
  comparisons?: ComparisonAnswer[];
};

/** The spec's webhook (conversational) mode response, returned at once. */
export type QueuedQueryResponse = {
  status: "queued";
  conversationId: string;
  visitorId: string;
  inputMessageId: string;
  message: string;
  webhookUrl: string;
};

/**
 * The seam for conversational mode (issue 7): when provided, queries of an agent with
 * useConversationalMode on the api channel are handed to it instead of being answered at once.
 * It validates webhookUrl, stores the input, batches, answers later and delivers by webhook.
 */
export type ConversationalQueue = {
  enqueue(input: {
    caller: AnswerCaller;
    agent: AgentRow;
    request: QueryRequest;
  }): Promise<QueuedQueryResponse>;
};
