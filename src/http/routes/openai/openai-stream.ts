import type { FastifyReply, FastifyRequest } from "fastify";
import { citationsOf } from "../../../domain/openai/openai-citations.ts";
import type { ResponseRequest } from "../../../domain/openai/openai-requests.ts";
import type { PreparedOpenAiAnswer } from "../../../domain/openai/openai-service.ts";
import { AppError } from "../../../lib/errors.ts";
import { openSseStream, type SseStream } from "../../sse.ts";
import { toOpenAiError } from "./openai-errors.ts";
import {
  chatCompletionIdOf,
  chatUsageOf,
  extensionOf,
  outputItemIdOf,
  responseObjectOf,
} from "./openai-views.ts";

type StreamContext = {
  request: FastifyRequest;
  reply: FastifyReply;
  pingIntervalMs: number;
  answer: PreparedOpenAiAnswer;
};

/** Runs `write` on an open event stream; a failure after the headers becomes `onError`'s frame. */
async function streaming(
  context: StreamContext,
  write: (stream: SseStream) => Promise<void>,
  onError: (stream: SseStream, body: ReturnType<typeof toOpenAiError>[1]) => Promise<void>,
): Promise<void> {
  const { request, reply, pingIntervalMs } = context;
  const stream = openSseStream(request, reply, { pingIntervalMs });
  try {
    await write(stream);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) {
      request.log.error({ err: error }, "streamed answer failed");
    }
    await onError(stream, toOpenAiError(error, request)[1]);
  } finally {
    stream.end();
  }
}

/**
 * A chat completion as OpenAI streams it: `data:` frames only, a first chunk with the role,
 * content deltas, a last chunk with finish_reason and the `agentdesk` field, a usage chunk when
 * asked, then `[DONE]`. A failure after the headers is a `data: {"error": …}` frame.
 */
export function streamChatCompletion(context: StreamContext, includeUsage: boolean) {
  const { answer } = context;
  const base = {
    id: chatCompletionIdOf(answer),
    object: "chat.completion.chunk",
    created: answer.created,
    model: answer.agentId,
    system_fingerprint: null,
  };
  const chunk = (stream: SseStream, delta: Record<string, unknown>, extra = {}) =>
    stream.data(
      JSON.stringify({
        ...base,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
        ...(includeUsage ? { usage: null } : {}),
        ...extra,
      }),
    );
  return streaming(
    context,
    async (stream) => {
      await chunk(stream, { role: "assistant", content: "" });
      const response = await answer.run({
        onText: (fragment) => chunk(stream, { content: fragment }),
        signal: stream.signal,
      });
      await stream.data(
        JSON.stringify({
          ...base,
          choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }],
          ...(includeUsage ? { usage: null } : {}),
          agentdesk: extensionOf(response),
        }),
      );
      if (includeUsage) {
        await stream.data(JSON.stringify({ ...base, choices: [], usage: chatUsageOf(response) }));
      }
      await stream.data("[DONE]");
    },
    (stream, body) => stream.data(JSON.stringify(body)),
  );
}

/**
 * A response as the Responses API streams it: typed events (`event: <type>` and its JSON with a
 * `sequence_number`) from response.created to response.completed. A failure after the headers is
 * an `error` event.
 */
export function streamResponse(context: StreamContext, body: ResponseRequest) {
  const { answer } = context;
  let sequence = 0;
  const emit = (stream: SseStream, type: string, fields: Record<string, unknown>) =>
    stream.event(type, JSON.stringify({ type, sequence_number: sequence++, ...fields }));
  const itemId = outputItemIdOf(answer);
  const at = { item_id: itemId, output_index: 0, content_index: 0 };
  return streaming(
    context,
    async (stream) => {
      const started = responseObjectOf(answer, body, null);
      await emit(stream, "response.created", { response: started });
      await emit(stream, "response.in_progress", { response: started });
      await emit(stream, "response.output_item.added", {
        output_index: 0,
        item: {
          type: "message",
          id: itemId,
          status: "in_progress",
          role: "assistant",
          content: [],
        },
      });
      await emit(stream, "response.content_part.added", {
        ...at,
        part: { type: "output_text", text: "", annotations: [] },
      });
      const response = await answer.run({
        onText: (delta) =>
          emit(stream, "response.output_text.delta", { ...at, delta, logprobs: [] }),
        signal: stream.signal,
      });
      const annotations = citationsOf(response.answer, answer.passages);
      for (const [index, annotation] of annotations.entries()) {
        await emit(stream, "response.output_text.annotation.added", {
          ...at,
          annotation_index: index,
          annotation,
        });
      }
      await emit(stream, "response.output_text.done", {
        ...at,
        text: response.answer,
        logprobs: [],
      });
      const part = { type: "output_text", text: response.answer, annotations };
      await emit(stream, "response.content_part.done", { ...at, part });
      const completed = responseObjectOf(answer, body, response);
      await emit(stream, "response.output_item.done", {
        output_index: 0,
        item: completed.output[0],
      });
      await emit(stream, "response.completed", { response: completed });
    },
    (stream, error) =>
      emit(stream, "error", {
        code: error.error.code,
        message: error.error.message,
        param: error.error.param,
      }),
  );
}
