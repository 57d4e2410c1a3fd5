import { citationsOf } from "../../../domain/openai/openai-citations.ts";
import type { ResponseRequest } from "../../../domain/openai/openai-requests.ts";
import { type PreparedOpenAiAnswer, responseIdOf } from "../../../domain/openai/openai-service.ts";
import type { QueryResponse } from "../../../domain/query/query-request.ts";
import type { ChatCompletion, ResponseObject } from "./openai-schemas.ts";

/** The `agentdesk` field: what the query endpoint answers besides the text. */
export function extensionOf(response: QueryResponse) {
  return {
    sources: response.sources,
    conversationId: response.conversationId,
    messageId: response.messageId,
    visitorId: response.visitorId,
    requestHuman: response.request_human,
    status: response.status,
    cost: response.usage.cost,
  };
}

export const chatCompletionIdOf = (answer: PreparedOpenAiAnswer) => `chatcmpl-${answer.messageId}`;

export function chatCompletionOf(
  answer: PreparedOpenAiAnswer,
  response: QueryResponse,
): ChatCompletion {
  return {
    id: chatCompletionIdOf(answer),
    object: "chat.completion",
    created: answer.created,
    model: answer.agentId,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: response.answer, refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: chatUsageOf(response),
    agentdesk: extensionOf(response),
  };
}

export function chatUsageOf(response: QueryResponse) {
  return {
    prompt_tokens: response.usage.promptTokens,
    completion_tokens: response.usage.completionTokens,
    total_tokens: response.usage.totalTokens,
  };
}

/** The message item of a response: its id is made of the stored message id too. */
export const outputItemIdOf = (answer: PreparedOpenAiAnswer) => `msg_${answer.messageId}`;

/**
 * A Responses API object: in progress (no output yet) before the answer, completed with its
 * message, annotations, usage and the extension field after it.
 */
export function responseObjectOf(
  answer: PreparedOpenAiAnswer,
  request: ResponseRequest,
  response: QueryResponse | null,
): ResponseObject {
  const echoed = {
    instructions: request.instructions ?? null,
    previous_response_id: request.previous_response_id ?? null,
    metadata: Object.fromEntries(
      Object.entries(request.metadata ?? {}).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string",
      ),
    ),
    temperature: request.temperature ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    top_p: null,
    parallel_tool_calls: false,
    tool_choice: "none" as const,
    tools: [],
    error: null,
    incomplete_details: null,
  };
  const base = {
    id: responseIdOf(answer.messageId),
    object: "response" as const,
    created_at: answer.created,
    model: answer.agentId,
    ...echoed,
  };
  if (!response) return { ...base, status: "in_progress", output: [], usage: null };
  return {
    ...base,
    status: "completed",
    output: [
      {
        type: "message",
        id: outputItemIdOf(answer),
        status: "completed",
        role: "assistant",
        content: [
          {
            type: "output_text",
            text: response.answer,
            annotations: citationsOf(response.answer, answer.passages),
          },
        ],
      },
    ],
    usage: {
      input_tokens: response.usage.promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: response.usage.completionTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: response.usage.totalTokens,
    },
    agentdesk: extensionOf(response),
  };
}
