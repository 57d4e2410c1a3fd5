import type { ServerResponse } from "node:http";
import { sampleFromSchema } from "./json-schema-sample.ts";
import {
  contentText,
  countWords,
  pause,
  sendError,
  sendJson,
  sendScriptedError,
} from "./openai-fake-http.ts";
import type { ChatReply, RecordedRequest } from "./openai-fake-types.ts";

type Message = { role?: unknown; content?: unknown };

function lastUserText(messages: Message[]): string {
  const last = messages.findLast((message) => message.role === "user");
  return last ? contentText(last.content) : "";
}

/** The content the fake answers when the script gives none. */
function defaultContent(body: Record<string, unknown>, messages: Message[]): string {
  const format = body.response_format as
    | { type?: string; json_schema?: { schema?: unknown } }
    | undefined;
  if (format?.type === "json_schema")
    return JSON.stringify(sampleFromSchema(format.json_schema?.schema));
  if (format?.type === "json_object") return "{}";
  return `Answer: ${lastUserText(messages)}`;
}

function buildReply(body: Record<string, unknown>, messages: Message[], reply: ChatReply) {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index + 1}`,
    type: "function" as const,
    function: {
      name: call.name,
      arguments:
        typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  const content =
    reply.json !== undefined
      ? JSON.stringify(reply.json)
      : (reply.text ?? (toolCalls.length > 0 ? "" : defaultContent(body, messages)));
  const promptText = messages.map((message) => contentText(message.content)).join(" ");
  const completionText = [content, ...toolCalls.map((call) => call.function.arguments)].join(" ");
  const promptTokens = reply.usage?.promptTokens ?? countWords(promptText);
  const completionTokens = reply.usage?.completionTokens ?? countWords(completionText);
  return {
    content,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

/** Answers POST /v1/chat/completions, as JSON or as SSE chunks when `stream: true`. */
export async function handleChat(
  request: RecordedRequest,
  reply: ChatReply,
  response: ServerResponse,
  signal: AbortSignal,
  responseId: string,
): Promise<void> {
  const body = request.body;
  if (!body || !Array.isArray(body.messages)) {
    sendError(response, 400, "messages is required");
    return;
  }
  if (!(await pause(reply.delayMs, signal)) || reply.hang) return;
  if (sendScriptedError(response, reply)) return;
  const built = buildReply(body, body.messages as Message[], reply);
  const frame = { id: responseId, created: Math.floor(Date.now() / 1000), model: body.model };

  if (body.stream !== true) {
    sendJson(response, 200, {
      ...frame,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: built.toolCalls.length > 0 && built.content === "" ? null : built.content,
            ...(built.toolCalls.length > 0 ? { tool_calls: built.toolCalls } : {}),
          },
          finish_reason: built.finishReason,
        },
      ],
      usage: built.usage,
    });
    return;
  }

  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const send = (data: unknown) => {
    if (!signal.aborted) response.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  const chunk = (delta: unknown, finishReason: string | null = null) =>
    send({
      ...frame,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });

  chunk({ role: "assistant", content: "" });
  const pieces = reply.chunks ?? (built.content === "" ? [] : built.content.split(/(?<=\s)(?=\S)/));
  for (let index = 0; ; index += 1) {
    if (index === reply.hangAfterChunks) return;
    if (index === reply.failAfterChunks) {
      send({
        error: { message: reply.errorMessage ?? "scripted stream failure", type: "server_error" },
      });
      response.end();
      return;
    }
    const piece = pieces[index];
    if (piece === undefined) break;
    if (index > 0 && !(await pause(reply.chunkDelayMs, signal))) return;
    chunk({ content: piece });
  }
  for (const [index, call] of built.toolCalls.entries()) {
    chunk({
      tool_calls: [
        {
          index,
          id: call.id,
          type: "function",
          function: { name: call.function.name, arguments: "" },
        },
      ],
    });
    chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] });
  }
  chunk({}, built.finishReason);
  const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
  if (streamOptions?.include_usage) {
    send({ ...frame, object: "chat.completion.chunk", choices: [], usage: built.usage });
  }
  if (!signal.aborted) response.end("data: [DONE]\n\n");
}
