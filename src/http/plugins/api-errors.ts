import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  AppError,
  ERROR_STATUS,
  type ErrorType,
  errorTypeForStatus,
  invalid,
  RateLimitedError,
} from "../../lib/errors.ts";
import {
  isUnstorableTextError,
  replaceJsonParser,
  TOO_DEEP_MESSAGE,
  UNSTORABLE_TEXT_MESSAGE,
  UnstorableInputError,
} from "./json-body.ts";

/** The body of every error of the dashboard API. */
export const errorBody = z.object({
  error: z.string().describe("What went wrong, safe to show"),
  type: z.enum(Object.keys(ERROR_STATUS) as [ErrorType, ...ErrorType[]]),
  requestId: z.string().describe("The request's id, also in the x-request-id header and the logs"),
  details: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe("Each invalid field of a 400"),
});

export type ErrorBody = z.infer<typeof errorBody>;

/**
 * Errors of Fastify and its plugins, by code: the message to show, and the type where the
 * framework's own status does not fit this API (otherwise its status stands).
 */
const FRAMEWORK_ERRORS: Record<string, { message: string; type?: ErrorType }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { message: "The request body is too large" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { message: "Unsupported content type" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { message: "The request body is empty" },
  FST_ERR_CTP_INVALID_JSON_BODY: { message: "The request body is not valid JSON" },
  FST_ERR_BAD_URL: { message: "The URL is not valid (bad percent-encoding)" },
  FST_ERR_MAX_PARAM_LENGTH: { message: "A path parameter is too long" },
  // @fastify/multipart answers a body it cannot take as a form with 406 Not Acceptable, and a
  // form with too many parts with 413; both are a malformed request here.
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    message: "The request body is not multipart/form-data",
    type: "INVALID_REQUEST",
  },
  FST_INVALID_JSON_FIELD_ERROR: {
    message: "A form field sent as application/json is not valid JSON",
    type: "INVALID_REQUEST",
  },
  FST_PROTO_VIOLATION: {
    message: "A form field is named like an Object.prototype property (__proto__, constructor…)",
    type: "INVALID_REQUEST",
  },
  FST_MP_PREMATURE_CLOSE: {
    message: "The request ended before the multipart/form-data body was complete",
    type: "INVALID_REQUEST",
  },
  FST_PARTS_LIMIT: {
    message: "The form has more parts than this endpoint reads",
    type: "INVALID_REQUEST",
  },
  FST_FILES_LIMIT: {
    message: "The form has more files than this endpoint reads",
    type: "INVALID_REQUEST",
  },
  FST_FIELDS_LIMIT: {
    message: "The form has more fields than this endpoint reads",
    type: "INVALID_REQUEST",
  },
  FST_REQ_FILE_TOO_LARGE: { message: "The uploaded file is too large", type: "PAYLOAD_TOO_LARGE" },
};

/** Turns any thrown value into the dashboard envelope; internals never reach the body. */
export function toErrorBody(error: unknown, request: FastifyRequest): [number, ErrorBody] {
  const requestId = request.id;
  if (error instanceof AppError) {
    const body: ErrorBody = { error: error.message, type: error.type, requestId };
    if (error.details) body.details = error.details;
    return [error.status, body];
  }
  if (isUnstorableTextError(error)) {
    return [400, { error: UNSTORABLE_TEXT_MESSAGE, type: "INVALID_REQUEST", requestId }];
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = (error as { validationContext?: string }).validationContext ?? "body";
    const details = error.validation.map((issue) => ({
      path: [where, ...issue.instancePath.split("/").filter(Boolean)].join("."),
      message: issue.message ?? "is invalid",
    }));
    const first = details[0]!;
    return [
      400,
      {
        error: `Invalid request: ${first.path} ${first.message}`,
        type: "INVALID_REQUEST",
        requestId,
        details,
      },
    ];
  }
  const { statusCode, code } = error as FastifyError;
  const known = FRAMEWORK_ERRORS[code];
  if (known?.type) {
    return [ERROR_STATUS[known.type], { error: known.message, type: known.type, requestId }];
  }
  if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500) {
    const message =
      known?.message ??
      (error instanceof SyntaxError ? "The request body is not valid JSON" : undefined) ??
      (error as Error).message;
    return [statusCode, { error: message, type: errorTypeForStatus(statusCode), requestId }];
  }
  return [500, { error: "Internal server error", type: "INTERNAL", requestId }];
}

/** One error handler and one not-found handler for the dashboard API. */
export function registerApiErrors(app: FastifyInstance): void {
  replaceJsonParser(app, (refusal) =>
    refusal === "too_deep"
      ? invalid(TOO_DEEP_MESSAGE)
      : new UnstorableInputError(UNSTORABLE_TEXT_MESSAGE),
  );
  app.setErrorHandler((error, request, reply) => {
    const [status, body] = toErrorBody(error, request);
    if (status >= 500) request.log.error({ err: error }, "request failed");
    if (error instanceof RateLimitedError) {
      reply.header("retry-after", String(error.retryAfterSeconds));
    }
    reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({
      error: `No endpoint ${request.method} ${request.url.split("?")[0]}`,
      type: "NOT_FOUND",
      requestId: request.id,
    } satisfies ErrorBody);
  });
}
