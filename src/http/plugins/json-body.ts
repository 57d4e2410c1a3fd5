import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * PostgreSQL cannot store U+0000 in text or jsonb, nor an unpaired UTF-16 surrogate in jsonb, so
 * such input is refused before it gets there.
 */
export const UNSTORABLE_TEXT_MESSAGE =
  "Text must not contain NUL (\\u0000) characters or unpaired surrogates (\\ud800-\\udfff)";

const isStorable = (text: string) => !text.includes("\u0000") && text.isWellFormed();

function containsUnstorable(value: unknown): boolean {
  if (typeof value === "string") return !isStorable(value);
  if (Array.isArray(value)) return value.some(containsUnstorable);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).some(
      ([key, item]) => !isStorable(key) || containsUnstorable(item),
    );
  }
  return false;
}

/**
 * Both can only reach a parsed JSON value through a `\u` escape (raw bytes that are not UTF-8
 * decode to U+FFFD), so most bodies skip the walk.
 */
export function hasUnstorableText(rawJson: string, parsed: unknown): boolean {
  return /\\u(?:0000|d[89a-f])/i.test(rawJson) && containsUnstorable(parsed);
}

/**
 * Fastify's own JSON parser (prototype poisoning refused) plus the unstorable-text check;
 * `reject` builds the listener's own error for that case.
 */
export function replaceJsonParser(app: FastifyInstance, reject: () => Error): void {
  const parseJson = app.getDefaultJsonParser("error", "ignore");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string" },
    (request: FastifyRequest, body: string | Buffer, done) => {
      parseJson(request, body as string, (error, parsed) => {
        if (error) return done(error);
        if (hasUnstorableText(body as string, parsed)) return done(reject());
        done(null, parsed);
      });
    },
  );
}

/** Input the database could not store; both listeners answer it as a validation error. */
export class UnstorableInputError extends Error {
  override name = "UnstorableInputError";
}

/** Ours, or PostgreSQL's codes for text it cannot store (NUL in text, or \u0000 in jsonb). */
export function isUnstorableTextError(error: unknown): boolean {
  if (error instanceof UnstorableInputError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return code === "22021" || code === "22P05";
}
