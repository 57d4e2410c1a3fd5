import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { OpenAiError } from "../../../domain/openai/openai-error.ts";
import type { ErrorType } from "../../../lib/errors.ts";
import { toErrorBody } from "../../plugins/api-errors.ts";

/** OpenAI's error body, which its SDKs turn into typed errors. */
export const openAiErrorBody = z.object({
  error: z.object({
    message: z.string().describe("What went wrong, safe to show"),
    type: z.string().describe("invalid_request_error, insufficient_quota, server_error…"),
    param: z.string().nullable().describe("The request field at fault, when one is"),
    code: z.string().nullable().describe("model_not_found, invalid_api_key…, or null"),
  }),
});

export type OpenAiErrorBody = z.infer<typeof openAiErrorBody>;

/** OpenAI's `type` and `code` for each type of our error vocabulary. */
export const OPENAI_KINDS: Record<ErrorType, { type: string; code: string | null }> = {
  INVALID_REQUEST: { type: "invalid_request_error", code: null },
  UNAUTHORIZED: { type: "invalid_request_error", code: "invalid_api_key" },
  USAGE_LIMIT: { type: "insufficient_quota", code: "insufficient_quota" },
  FORBIDDEN: { type: "permission_error", code: null },
  NOT_FOUND: { type: "invalid_request_error", code: null },
  CONVERSATION_NOT_FOUND: { type: "invalid_request_error", code: "conversation_not_found" },
  METHOD_NOT_ALLOWED: { type: "invalid_request_error", code: null },
  CONFLICT: { type: "invalid_request_error", code: null },
  PAYLOAD_TOO_LARGE: { type: "invalid_request_error", code: "request_too_large" },
  UNSUPPORTED_MEDIA_TYPE: { type: "invalid_request_error", code: null },
  RATE_LIMITED: { type: "rate_limit_error", code: "rate_limit_exceeded" },
  INTERNAL: { type: "server_error", code: null },
  BAD_GATEWAY: { type: "server_error", code: null },
  SERVICE_UNAVAILABLE: { type: "server_error", code: null },
};

/** `body.messages.0.content` → `messages.0.content`: OpenAI names the field alone. */
const paramOf = (path: string) => path.replace(/^(body|params|querystring|headers)\.?/, "") || null;

/**
 * Any thrown value in OpenAI's shape, with the status the rest of the API would answer: the
 * dashboard envelope is computed first (one mapping of errors), then translated.
 */
export function toOpenAiError(error: unknown, request: FastifyRequest): [number, OpenAiErrorBody] {
  const [status, body] = toErrorBody(error, request);
  const kind = OPENAI_KINDS[body.type];
  // Field details name the param of a 400; other types carry details of their own.
  const detail = body.type === "INVALID_REQUEST" ? body.details?.[0] : undefined;
  return [
    status,
    {
      error: {
        message: body.error,
        type: kind.type,
        param: error instanceof OpenAiError ? error.param : detail ? paramOf(detail.path) : null,
        code: error instanceof OpenAiError ? error.code : kind.code,
      },
    },
  ];
}

/** The error and not-found handlers of the /v1 plugin: OpenAI's shape there, and only there. */
export function registerOpenAiErrors(v1: FastifyInstance): void {
  v1.setErrorHandler((error, request, reply) => {
    const [status, body] = toOpenAiError(error, request);
    if (status >= 500) request.log.error({ err: error }, "request failed");
    reply.code(status).send(body);
  });
  v1.setNotFoundHandler((request, reply) => {
    reply.code(404).send({
      error: {
        message: `Unknown request URL: ${request.method} ${request.url.split("?")[0]}`,
        type: "invalid_request_error",
        param: null,
        code: "unknown_url",
      },
    } satisfies OpenAiErrorBody);
  });
}
