import type { FastifyError, FastifyInstance } from "fastify";
import { z } from "zod";
import { isUnstorableTextError, UNSTORABLE_TEXT_MESSAGE } from "./json-body.ts";

const SITE_ERROR_CODES = [
  "validation_error",
  "invalid_json",
  "rate_limited",
  "method_not_allowed",
  "not_found",
  "payload_too_large",
  "internal_error",
] as const;

export type SiteErrorCode = (typeof SITE_ERROR_CODES)[number];

/** The body of every error of the marketing site listener. */
export const siteErrorBody = z.object({
  error: z.string().describe("What went wrong, safe to show"),
  code: z.enum(SITE_ERROR_CODES),
  hint: z.string().describe("What to do about it"),
});

/** An error of the marketing site, answered as `{error, code, hint}`. */
export class SiteError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: SiteErrorCode,
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = "SiteError";
  }
}

export const rateLimitedError = () =>
  new SiteError(
    429,
    "rate_limited",
    "Too many requests from this address",
    "Wait a minute before sending the form again.",
  );

export function toSiteErrorBody(error: unknown): [number, z.infer<typeof siteErrorBody>] {
  const siteError = toSiteError(error);
  return [
    siteError.statusCode,
    { error: siteError.message, code: siteError.code, hint: siteError.hint },
  ];
}

function toSiteError(error: unknown): SiteError {
  if (error instanceof SiteError) return error;
  const { statusCode, code } = error as FastifyError;
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE" || statusCode === 413) {
    return new SiteError(
      413,
      "payload_too_large",
      "The request body is too large",
      "Send only the form fields; the body may be at most 16 KiB.",
    );
  }
  if (statusCode === 429) return rateLimitedError();
  if (code === "FST_ERR_BAD_URL" || code === "FST_ERR_MAX_PARAM_LENGTH") {
    return new SiteError(
      404,
      "not_found",
      "No such endpoint",
      "The marketing site API has POST /api/leads.",
    );
  }
  if (isUnstorableTextError(error)) {
    return new SiteError(
      400,
      "validation_error",
      UNSTORABLE_TEXT_MESSAGE,
      "Remove control characters from the form fields.",
    );
  }
  if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500) {
    return new SiteError(
      400,
      "invalid_json",
      "The request body could not be read",
      "Send the lead as a JSON object with Content-Type: application/json.",
    );
  }
  return new SiteError(
    500,
    "internal_error",
    "The lead could not be saved",
    "Try again in a moment; if it keeps failing, contact us by email.",
  );
}

/** Every error and unknown path of the site listener becomes JSON `{error, code, hint}`. */
export function registerSiteErrors(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const [status, body] = toSiteErrorBody(error);
    if (status >= 500) request.log.error({ err: error }, "site request failed");
    reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({
      error: `No endpoint ${request.method} ${request.url.split("?")[0]}`,
      code: "not_found",
      hint: "The marketing site API has POST /api/leads.",
    });
  });
}
