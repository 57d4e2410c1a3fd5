import type { FastifyInstance, FastifyRequest } from "fastify";

/** PostgreSQL text and jsonb cannot hold U+0000, so such input is refused before it gets there. */
export const NUL_MESSAGE = "Text must not contain NUL (\\u0000) characters";

function containsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).some(([key, item]) => key.includes("\u0000") || containsNul(item));
  }
  return false;
}

/** NUL can only reach a JSON value through the `\u0000` escape, so most bodies skip the walk. */
export function hasNulCharacter(rawJson: string, parsed: unknown): boolean {
  return rawJson.includes("\\u0000") && containsNul(parsed);
}

/**
 * Fastify's own JSON parser (prototype poisoning refused) plus the NUL check; `reject` builds
 * the listener's own error for that case.
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
        if (hasNulCharacter(body as string, parsed)) return done(reject());
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
