import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import {
  AppError,
  type ErrorDetail,
  type ErrorType,
  errorTypeForStatus,
  invalid,
} from "../../lib/errors.ts";
import {
  isUnstorableTextError,
  replaceJsonParser,
  TOO_DEEP_MESSAGE,
  UNSTORABLE_TEXT_MESSAGE,
  UnstorableInputError,
} from "./json-body.ts";

export type ErrorBody = {
  error: string;
  type: ErrorType;
  requestId: string;
  details?: ErrorDetail[];
};

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported content type",
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty",
  FST_ERR_CTP_INVALID_JSON_BODY: "The request body is not valid JSON",
  FST_ERR_BAD_URL: "The URL is not valid (bad percent-encoding)",
  FST_ERR_MAX_PARAM_LENGTH: "A path parameter is too long",
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
  const status = (error as FastifyError).statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    const code = (error as FastifyError).code;
    const message =
      FRAMEWORK_MESSAGES[code] ??
      (error instanceof SyntaxError ? "The request body is not valid JSON" : undefined) ??
      (error as Error).message;
    return [status, { error: message, type: errorTypeForStatus(status), requestId }];
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
