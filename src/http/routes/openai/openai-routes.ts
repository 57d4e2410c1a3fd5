import type { OpenAiService } from "../../../domain/openai/openai-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import type { SsePingSettings } from "../../sse.ts";
import { registerOpenAiErrors } from "./openai-errors.ts";
import {
  chatCompletionBody,
  chatCompletionSchema,
  modelListSchema,
  modelParams,
  modelSchema,
  responseBody,
  responseSchema,
} from "./openai-schemas.ts";
import { streamChatCompletion, streamResponse } from "./openai-stream.ts";
import { chatCompletionOf, responseObjectOf } from "./openai-views.ts";

export type OpenAiRouteDeps = { openai: OpenAiService };

const CHAT_STREAM =
  "With `stream: true`, a text/event-stream of `data:` frames: chat.completion.chunk objects " +
  "(the first with delta.role, then content deltas, the last with finish_reason and the " +
  "`agentdesk` field; with stream_options.include_usage a last chunk with usage and no " +
  'choices), then `data: [DONE]`. A failure after the headers is a `data: {"error": …}` frame.';

const RESPONSE_STREAM =
  "With `stream: true`, a text/event-stream of typed events (`event: <type>`, data the JSON " +
  "with `type` and `sequence_number`): response.created, response.in_progress, " +
  "response.output_item.added, response.content_part.added, response.output_text.delta…, " +
  "response.output_text.annotation.added…, response.output_text.done, " +
  "response.content_part.done, response.output_item.done, response.completed. A failure after " +
  "the headers is an `error` event.";

const MODEL_ERRORS = {
  401: "No valid API key (code invalid_api_key)",
  404: "No agent with this id or handle in the organization (code model_not_found)",
} as const;

const ANSWER_ERRORS = {
  ...MODEL_ERRORS,
  402: "The organization has no credits left, or its plan or payment blocks it (insufficient_quota)",
  500: "The model provider failed (server_error)",
  502: "The embedding model of a datastore of the agent answered with an error",
  503: "The embedding model of a datastore of the agent is not available",
} as const;

/**
 * The OpenAI-compatible API under /v1: agents as models, chat completions and responses over the
 * query pipeline. Its errors are OpenAI's shape; the rest of the API keeps its own.
 */
export async function registerOpenAiRoutes(
  app: App,
  deps: OpenAiRouteDeps,
  settings: SsePingSettings,
): Promise<void> {
  await app.register(
    async (v1: App) => {
      registerOpenAiErrors(v1);
      const common = {
        tags: ["openai"],
        "x-extension": true as const,
        errorComponent: "OpenAIError",
      };

      v1.get(
        "/models",
        {
          config: { auth: "key", permission: "query" },
          schema: {
            ...common,
            operationId: "listModels",
            summary: "The organization's agents as OpenAI models",
            response: { 200: modelListSchema },
            errors: { 401: MODEL_ERRORS[401] },
          },
        },
        async (request) => ({
          object: "list" as const,
          data: await deps.openai.listModels(callerOf(request)),
        }),
      );

      v1.get(
        "/models/:model",
        {
          config: { auth: "key", permission: "query" },
          schema: {
            ...common,
            operationId: "getModel",
            summary: "One agent as an OpenAI model, by id or handle",
            params: modelParams,
            response: { 200: modelSchema },
            errors: MODEL_ERRORS,
          },
        },
        async (request) => deps.openai.getModel(callerOf(request), request.params.model),
      );

      v1.post(
        "/chat/completions",
        {
          config: { auth: "key", permission: "query" },
          schema: {
            ...common,
            operationId: "createChatCompletion",
            summary: "Ask an agent, as an OpenAI chat completion (JSON or Server-Sent Events)",
            body: chatCompletionBody,
            response: { 200: chatCompletionSchema },
            eventStream: CHAT_STREAM,
            errors: ANSWER_ERRORS,
          },
        },
        async (request, reply) => {
          const answer = await deps.openai.prepareChatCompletion(callerOf(request), request.body);
          if (!request.body.stream) return chatCompletionOf(answer, await answer.run());
          const includeUsage = request.body.stream_options?.include_usage === true;
          const context = { request, reply, pingIntervalMs: settings.ssePingIntervalMs, answer };
          await streamChatCompletion(context, includeUsage);
          return reply;
        },
      );

      v1.post(
        "/responses",
        {
          config: { auth: "key", permission: "query" },
          schema: {
            ...common,
            operationId: "createResponse",
            summary:
              "Ask an agent, as an OpenAI Responses API response (JSON or Server-Sent Events)",
            body: responseBody,
            response: { 200: responseSchema },
            eventStream: RESPONSE_STREAM,
            errors: {
              ...ANSWER_ERRORS,
              404: `${MODEL_ERRORS[404]}; or previous_response_id is not a response of this agent (code previous_response_not_found)`,
            },
          },
        },
        async (request, reply) => {
          const answer = await deps.openai.prepareResponse(callerOf(request), request.body);
          if (!request.body.stream) {
            return responseObjectOf(answer, request.body, await answer.run());
          }
          const context = { request, reply, pingIntervalMs: settings.ssePingIntervalMs, answer };
          await streamResponse(context, request.body);
          return reply;
        },
      );
    },
    { prefix: "/v1" },
  );
}
