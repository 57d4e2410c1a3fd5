import type { AgentRow } from "../agents/agent-repo.ts";
import type { AnswerCaller } from "../caller.ts";
import type { QueryRequest, QueuedQueryResponse } from "./query-request.ts";

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
