import type { Readable } from "node:stream";
import { Agent, buildConnector } from "undici";
import { createIpPolicy } from "./ip-policy.ts";
import type { Logger } from "./logger.ts";
import { FetchFailedError, toFetchFailure, UnsafeUrlError } from "./safe-fetch-errors.ts";
import {
  canonicalHostName,
  createUrlGuard,
  type Resolver,
  systemResolver,
} from "./safe-fetch-guard.ts";

export {
  FetchFailedError,
  UnsafeUrlError,
  type UnsafeUrlReason,
} from "./safe-fetch-errors.ts";
export { canonicalHostName } from "./safe-fetch-guard.ts";

export interface SafeFetcherOptions {
  /** true in development and tests; false (production) refuses private, loopback, metadata… */
  allowPrivateNetworks: boolean;
  /**
   * Host names or IP addresses (case-insensitive, exact) that may be fetched whatever they
   * resolve to, e.g. an intranet wiki. Only the host of each URL counts: a redirect from a listed
   * host is judged on its own host.
   */
  allowedHosts?: readonly string[];
  userAgent?: string;
  defaultTimeoutMs?: number;
  defaultMaxBytes?: number;
  defaultMaxRedirects?: number;
  /** How host names are resolved; defaults to the system resolver (dns.lookup, all answers). */
  resolve?: Resolver;
  /** Logs each refusal's address and its kind at debug; the error's message names neither. */
  logger?: Pick<Logger, "debug">;
}

interface SafeFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Bounds the whole exchange, redirects and body included. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  /** Sets the Accept header unless `headers` already has one. */
  accept?: string;
}

interface SafeResponse {
  status: number;
  /** The final URL, after redirects. */
  url: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  contentType: string | null;
  body: Buffer;
  /** Every URL that answered with a redirect, in order, starting with the requested one. */
  redirects: string[];
}

export interface SafeFetcher {
  fetch(url: string, init?: SafeFetchInit): Promise<SafeResponse>;
  /** Validates the scheme and every resolved address; throws when the URL may not be fetched. */
  check(url: string): Promise<void>;
  /**
   * The addresses of a host that another protocol will dial (an IMAP server), judged as a URL's
   * host is; throws UnsafeUrlError when it may not be reached.
   */
  resolveHost(hostname: string): Promise<string[]>;
  /** Resolves when the URL answers any HTTP response to a HEAD request; redirects are not followed. */
  probe(url: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Fetch standard: these describe the body and go away with it when a redirect turns into a GET.
const BODY_HEADERS = [
  "content-encoding",
  "content-language",
  "content-location",
  "content-type",
  "content-length",
];
// Fetch standard: credentials must not follow a redirect to another origin.
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];
const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

interface HopRequest {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

/** An HTTP client for every outbound request: SSRF policy on each hop, caps on bytes and time. */
export function createSafeFetcher(options: SafeFetcherOptions): SafeFetcher {
  const userAgent = options.userAgent ?? "agentdesk";
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 15_000;
  const defaultMaxBytes = options.defaultMaxBytes ?? 10 * 1024 * 1024;
  const defaultMaxRedirects = options.defaultMaxRedirects ?? 5;
  const guard = createUrlGuard({
    policy: createIpPolicy({ allowPrivateNetworks: options.allowPrivateNetworks }),
    resolve: options.resolve ?? systemResolver,
    connectTimeoutMs: defaultTimeoutMs,
    allowedHosts: new Set((options.allowedHosts ?? []).map(allowedHostName)),
    logger: options.logger,
  });
  // undici is loaded with the process, not with the first request: loading it holds the event
  // loop for 50-140 ms, which at start is paid before the first request, and later stalls every
  // request in flight (a channel's first answer held its acknowledgements that long).
  const agent = new Agent({ connect: guard.connector(buildConnector) });
  let closing: Promise<void> | null = null;

  const send = async (url: URL, request: HopRequest, signal: AbortSignal) =>
    agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal,
    });

  return {
    async fetch(rawUrl, init = {}) {
      const timeoutMs = init.timeoutMs ?? defaultTimeoutMs;
      const maxBytes = init.maxBytes ?? defaultMaxBytes;
      const maxRedirects = init.maxRedirects ?? defaultMaxRedirects;
      let url = guard.parse(rawUrl);
      let request: HopRequest = {
        method: (init.method ?? "GET").toUpperCase(),
        headers: buildHeaders(userAgent, init),
        body: init.body,
      };
      const redirects: string[] = [];
      const deadline = startDeadline(timeoutMs, init.signal);
      try {
        for (;;) {
          const response = await send(url, request, deadline.signal);
          const headers = flattenHeaders(response.headers);
          const location = headers.location;
          if (REDIRECT_STATUSES.has(response.statusCode) && location !== undefined) {
            // Draining a small redirect body keeps the connection reusable.
            await response.body.dump();
            if (redirects.length >= maxRedirects) {
              throw new UnsafeUrlError(
                "too_many_redirects",
                `${url.origin} redirected more than ${maxRedirects} times`,
              );
            }
            redirects.push(url.href);
            const next = guard.parse(resolveLocation(location, url));
            request = redirectedRequest(request, response.statusCode, url, next);
            url = next;
            continue;
          }
          const body = await readCapped(response.body, headers, maxBytes, url.origin);
          return {
            status: response.statusCode,
            url: url.href,
            headers,
            contentType: headers["content-type"] ?? null,
            body,
            redirects,
          };
        }
      } catch (error) {
        throw deadline.explain(error, url.origin);
      } finally {
        deadline.stop();
      }
    },

    async check(rawUrl) {
      const url = guard.parse(rawUrl);
      await guard.resolveAllowed(url.hostname, url.origin);
    },

    async resolveHost(hostname) {
      const host = hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
      const url = guard.parse(`http://${host}/`);
      return guard.resolveAllowed(url.hostname, url.hostname);
    },

    async probe(rawUrl, timeoutMs = DEFAULT_PROBE_TIMEOUT_MS) {
      const url = guard.parse(rawUrl);
      const deadline = startDeadline(timeoutMs, undefined);
      try {
        const request = { method: "HEAD", headers: { "user-agent": userAgent }, body: undefined };
        const response = await send(url, request, deadline.signal);
        await response.body.dump();
      } catch (error) {
        throw deadline.explain(error, url.origin);
      } finally {
        deadline.stop();
      }
    },

    close() {
      // Once: undici refuses to close an agent twice.
      closing ??= agent.close();
      return closing;
    },
  };
}

function allowedHostName(entry: string): string {
  const hostname = canonicalHostName(entry);
  if (hostname === null) throw new TypeError(`"${entry}" is not a host name or IP address`);
  return hostname;
}

function buildHeaders(userAgent: string, init: SafeFetchInit): Record<string, string> {
  const headers: Record<string, string> = { "user-agent": userAgent };
  for (const [name, value] of Object.entries(init.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  headers.accept ??= init.accept ?? "*/*";
  return headers;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = [value].flat().join(", ");
  }
  return headers;
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new UnsafeUrlError("invalid_url", `${base.origin} redirected to an invalid URL`);
  }
}

/** The next hop's request, per the fetch standard's redirect rules. */
function redirectedRequest(previous: HopRequest, status: number, from: URL, to: URL): HopRequest {
  const headers = { ...previous.headers };
  let { method, body } = previous;
  if (
    ((status === 301 || status === 302) && method === "POST") ||
    (status === 303 && method !== "GET" && method !== "HEAD")
  ) {
    method = "GET";
    body = undefined;
    for (const name of BODY_HEADERS) delete headers[name];
  }
  if (from.origin !== to.origin) {
    for (const name of CREDENTIAL_HEADERS) delete headers[name];
  }
  return { method, headers, body };
}

/** Reads the whole body, failing (not truncating) once it passes maxBytes. */
async function readCapped(
  body: Readable,
  headers: Record<string, string>,
  maxBytes: number,
  origin: string,
): Promise<Buffer> {
  const tooLarge = () =>
    new FetchFailedError(
      "too_large",
      `The response from ${origin} is larger than ${maxBytes} bytes`,
    );
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    // Nothing listens to the unread body, so its abort error would otherwise go unhandled.
    body.on("error", () => {}).destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Leaving the loop by throwing destroys the stream, which closes the connection.
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** One abort signal for a whole exchange, fired by the time budget or by the caller. */
function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });

  return {
    signal: controller.signal,
    explain(error: unknown, target: string): Error {
      if (error instanceof UnsafeUrlError || error instanceof FetchFailedError) return error;
      if (timedOut) {
        return new FetchFailedError("timeout", `${target} did not answer within ${timeoutMs} ms`, {
          cause: error,
        });
      }
      if (callerSignal?.aborted) {
        return new FetchFailedError("aborted", `The request to ${target} was cancelled`, {
          cause: error,
        });
      }
      return toFetchFailure(error, target);
    },
    stop() {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}
