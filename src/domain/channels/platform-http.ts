import { type SafeFetcher, UnsafeUrlError } from "../../lib/safe-fetch.ts";
import { type PlatformContext, PlatformError } from "./channel-adapter.ts";

/** How long one call to a platform may take. */
const PLATFORM_TIMEOUT_MS = 15_000;

export type PlatformResponse = { status: number; headers: Headers; body: unknown };

/** Seconds of a Retry-After header (or a body's own field) as milliseconds. */
function retryAfterMs(seconds: unknown): number | undefined {
  const value = typeof seconds === "string" ? Number(seconds) : seconds;
  return typeof value === "number" && Number.isFinite(value) && value >= 0
    ? Math.ceil(value * 1000)
    : undefined;
}

/**
 * One JSON call to a platform. The URL may carry a token (Telegram's), so no message this
 * throws ever names it: `what` says which call failed.
 */
export async function callPlatform(
  context: PlatformContext,
  what: string,
  url: string,
  init: {
    method?: "GET" | "POST" | "DELETE";
    headers?: Record<string, string>;
    json?: unknown;
  } = {},
): Promise<PlatformResponse> {
  let response: Response;
  try {
    response = await context.fetch(url, {
      method: init.method ?? (init.json === undefined ? "GET" : "POST"),
      headers: {
        accept: "application/json",
        ...(init.json === undefined ? {} : { "content-type": "application/json; charset=utf-8" }),
        ...init.headers,
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      signal: AbortSignal.timeout(PLATFORM_TIMEOUT_MS),
    });
  } catch (error) {
    // The SSRF guard refused the address: trying again will not change its mind.
    if (error instanceof UnsafeUrlError) {
      throw new PlatformError(`${what}: ${error.message}`, { retryable: false });
    }
    const timedOut = (error as Error).name === "TimeoutError";
    throw new PlatformError(
      `${what}: the platform ${timedOut ? "did not answer" : "could not be reached"}`,
      {
        retryable: true,
      },
    );
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  return { status: response.status, headers: response.headers, body };
}

/** Reads a file the platform serves (a voice note), refusing more than `maxBytes`. */
export async function downloadFromPlatform(
  context: PlatformContext,
  what: string,
  url: string,
  headers: Record<string, string>,
  maxBytes: number,
): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await context.fetch(url, {
      headers,
      signal: AbortSignal.timeout(PLATFORM_TIMEOUT_MS),
    });
  } catch {
    throw new PlatformError(`${what}: the file could not be downloaded`, { retryable: true });
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new PlatformError(`${what}: the platform answered ${response.status}`, {
      retryable: response.status === 429 || response.status >= 500,
    });
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new PlatformError(`${what}: the file is larger than ${maxBytes} bytes`, {
        retryable: false,
      });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The failure of a call the platform answered with an error status. */
export function failureOf(
  what: string,
  response: PlatformResponse,
  description: string | undefined,
  bodyRetryAfterSeconds?: unknown,
): PlatformError {
  const { status } = response;
  return new PlatformError(`${what}: ${description ?? `the platform answered ${status}`}`, {
    retryable: status === 429 || status >= 500,
    retryAfterMs: retryAfterMs(bodyRetryAfterSeconds ?? response.headers.get("retry-after")),
    credentialsRefused: status === 401,
  });
}

/** Statuses whose responses have no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** The largest answer read from a platform whose address a channel's config gave. */
const GUARDED_MAX_BYTES = 1024 * 1024;

/**
 * `fetch` over the SSRF-safe fetcher, for the platforms whose URL comes from a channel's config
 * (DESIGN.md §9): each address is checked, and redirects are not followed, since they would carry
 * the platform's token (an `api_access_token` header) to wherever they point.
 */
export function fetchThroughGuard(fetcher: Pick<SafeFetcher, "fetch">): typeof fetch {
  return async (input, init) => {
    const body = init?.body;
    const response = await fetcher.fetch(String(input), {
      method: init?.method ?? "GET",
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(typeof body === "string" ? { body } : {}),
      ...(init?.signal ? { signal: init.signal } : {}),
      maxRedirects: 0,
      maxBytes: GUARDED_MAX_BYTES,
    });
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.body, {
      status: response.status,
      headers: response.headers,
    });
  };
}
