import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * How deeply a JSON body may nest objects and arrays, the body itself being level 1. The deepest
 * body the API defines has 4 levels (an agent's `tools[].config.<key>`), so free-form objects
 * (`metadata`, `config`) keep 60 levels of room. Thousands of levels exhaust the stack of the
 * recursive code that handles a value later: V8's JSON.stringify (about 4,000 levels), drizzle's
 * jsonb mapping, the unstorable-text walk below, PostgreSQL's jsonb input.
 */
export const MAX_JSON_DEPTH = 64;

export const TOO_DEEP_MESSAGE = `The JSON body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
const CLOSE_BRACE = 125;
const CLOSE_BRACKET = 93;

/**
 * Whether JSON text nests deeper than `maxDepth`, read without parsing or recursion: one loop over
 * the characters outside strings, jumping over each string with indexOf. On a 1 MB body it costs
 * about 10 µs when the body is mostly text and a fifth of JSON.parse's time when it is thousands
 * of small objects; under a microsecond for a typical body. Text that is not JSON gets an
 * arbitrary answer, and the parser refuses it anyway.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === QUOTE) {
      const end = closingQuote(text, at);
      if (end < 0) return false;
      at = end;
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that ends the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * PostgreSQL cannot store U+0000 in text or jsonb, nor an unpaired UTF-16 surrogate in jsonb, so
 * such input is refused before it gets there.
 */
export const UNSTORABLE_TEXT_MESSAGE =
  "Text must not contain NUL (\\u0000) characters or unpaired surrogates (\\ud800-\\udfff)";

/** Whether PostgreSQL can store `text` in text and jsonb columns. */
export const isStorable = (text: string) => !text.includes("\u0000") && text.isWellFormed();

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

/** Why a JSON body that parses is still refused before any route sees it. */
export type JsonBodyRefusal = "too_deep" | "unstorable_text";

/**
 * Fastify's own JSON parser (prototype poisoning refused) behind the depth check, plus the
 * unstorable-text check; `refuse` builds the listener's own error for either.
 */
export function replaceJsonParser(
  app: FastifyInstance,
  refuse: (refusal: JsonBodyRefusal) => Error,
): void {
  const parseJson = app.getDefaultJsonParser("error", "ignore");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string" },
    (request: FastifyRequest, body: string | Buffer, done) => {
      const text = body as string;
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(refuse("too_deep"));
      parseJson(request, text, (error, parsed) => {
        if (error) return done(error);
        if (hasUnstorableText(text, parsed)) return done(refuse("unstorable_text"));
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
