import { constantTimeEquals, hmacSha256Hex } from "../../lib/secrets.ts";
import type { InboundReading, InboundRequest, PlatformContext } from "./channel-adapter.ts";
import { callPlatform, failureOf } from "./platform-http.ts";

/** Meta's 24-hour customer service window (WhatsApp) and standard messaging window (Messenger). */
export const META_REPLY_WINDOW_MS = 24 * 60 * 60 * 1000;

type GraphError = { error?: { message?: string; code?: number } };

// 190: the access token is invalid or expired. Rate limits: 4 (the app's), 17 (the user's),
// 32 (the page's), 613 (calls within a time), 80007 and 130429 (WhatsApp's).
const REFUSED_TOKEN_CODES = new Set([190]);
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80007, 130429]);

/**
 * One call to the Graph API (`META_GRAPH_API_BASE_URL/META_GRAPH_API_VERSION/path`) with the
 * token as a bearer, so that it never appears in a URL; returns the JSON answer of a 2xx.
 */
export async function callGraph(
  context: PlatformContext,
  token: string | undefined,
  what: string,
  path: string,
  init: { method?: "GET" | "POST" | "DELETE"; json?: unknown } = {},
): Promise<Record<string, unknown>> {
  const { metaGraphApiBaseUrl, metaGraphApiVersion } = context.platforms;
  const response = await callPlatform(
    context,
    what,
    `${metaGraphApiBaseUrl}/${metaGraphApiVersion}/${path}`,
    { headers: { authorization: `Bearer ${token ?? ""}` }, ...init },
  );
  if (response.status >= 200 && response.status < 300) {
    return (response.body ?? {}) as Record<string, unknown>;
  }
  const error = (response.body as GraphError | null)?.error;
  const failure = failureOf(what, response, error?.message);
  if (error?.code !== undefined && REFUSED_TOKEN_CODES.has(error.code)) {
    failure.options.credentialsRefused = true;
  }
  if (error?.code !== undefined && RATE_LIMIT_CODES.has(error.code)) {
    failure.options.retryable = true;
  }
  throw failure;
}

/**
 * Meta's `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`,
 * compared in constant time.
 */
export function hubSignatureValid(request: InboundRequest, appSecret: string | undefined) {
  const given = request.headers["x-hub-signature-256"];
  if (!given || !appSecret) return false;
  return constantTimeEquals(given, `sha256=${hmacSha256Hex(appSecret, request.rawBody)}`);
}

/**
 * Meta's verification request (`GET ?hub.mode=subscribe&hub.verify_token&hub.challenge`): the
 * challenge as text when the verify token is this channel's, else 403.
 */
export function hubVerification(
  query: InboundRequest["query"],
  verifyToken: string | undefined,
): InboundReading {
  const given = query["hub.verify_token"];
  const ok =
    query["hub.mode"] === "subscribe" &&
    given !== undefined &&
    verifyToken !== undefined &&
    constantTimeEquals(given, verifyToken);
  return ok
    ? {
        kind: "handshake",
        status: 200,
        contentType: "text/plain",
        body: query["hub.challenge"] ?? "",
      }
    : {
        kind: "handshake",
        status: 403,
        contentType: "text/plain",
        body: "The verify token does not match this channel",
      };
}
