import { STATUS_CODES } from "node:http";
import { pipeline, Readable, type Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { Agent, type Dispatcher } from "undici";

/**
 * The HTTP client of the model providers: a `fetch` for the AI SDK over undici's `request` on
 * one keep-alive Agent. The platform's fetch builds a WHATWG Request, response body stream and
 * abort plumbing around every call; with the model answering at once that machinery was a sixth
 * of an agent query's CPU, and this path serves 13-20% more queries a second (docs/models.md,
 * "HTTP transport"). What it does not cover goes to the platform's fetch unchanged: a Request
 * object, a body other than text or bytes (the multipart upload of a transcription) and the
 * hop after a redirect, which fetch then follows by the standard's rules.
 */
export type ModelTransport = {
  fetch: typeof fetch;
  /** Closes the kept-alive connections; calls made after it use new ones. */
  close(): Promise<void>;
};

/** Statuses whose response has no body, per the fetch standard. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

type SentBody = string | Uint8Array | undefined;

function sentBodyOf(body: RequestInit["body"]): SentBody | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  return null;
}

function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers)) {
    return Object.fromEntries(new Headers(headers));
  }
  return headers as Record<string, string>;
}

function responseHeaders(raw: Dispatcher.ResponseData["headers"]): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

/** The body as fetch would hand it over: decoded; streamed for event streams, else read whole. */
async function responseBody(
  body: Dispatcher.ResponseData["body"],
  headers: Headers,
): Promise<ReadableStream<Uint8Array> | Buffer> {
  const decoder = DECODERS[(headers.get("content-encoding") ?? "").trim().toLowerCase()];
  if (decoder) {
    headers.delete("content-encoding");
    headers.delete("content-length");
  }
  // A failure on either side destroys both; it reaches the reader through the decoder.
  const decoded: Readable = decoder ? pipeline(body, decoder(), () => {}) : body;
  if ((headers.get("content-type") ?? "").includes("text/event-stream")) {
    return Readable.toWeb(decoded) as ReadableStream<Uint8Array>;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of decoded) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The request a redirect asks for: 303, and 301 or 302 after a POST, become a bodiless GET. */
function nextHopInit(status: number, method: string, init: RequestInit): RequestInit {
  const toGet =
    (status === 303 && method !== "GET" && method !== "HEAD") ||
    ((status === 301 || status === 302) && method === "POST");
  if (!toGet) return init;
  const headers = new Headers(init.headers);
  for (const name of ["content-type", "content-length", "content-encoding", "content-language"]) {
    headers.delete(name);
  }
  return { ...init, method: "GET", headers, body: null };
}

export function createModelTransport(): ModelTransport {
  // One connection pool for every provider; undici is loaded with the process (safe-fetch.ts
  // says why).
  const agent = new Agent();
  let closing: Promise<void> | null = null;

  async function modelFetch(
    input: string | URL | Request,
    init: RequestInit = {},
  ): Promise<Response> {
    const body = sentBodyOf(init.body);
    if (input instanceof Request || body === null) return fetch(input, init);
    const url = new URL(input);
    const method = (init.method ?? "GET").toUpperCase() as Dispatcher.HttpMethod;
    const signal = init.signal ?? undefined;
    const response = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method,
      headers: headerRecord(init.headers),
      body: body ?? null,
      ...(signal ? { signal } : {}),
    });
    const status = response.statusCode;
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(status) && typeof location === "string") {
      await response.body.dump();
      return fetch(new URL(location, url), nextHopInit(status, method, init));
    }
    const headers = responseHeaders(response.headers);
    const responseInit = { status, statusText: STATUS_CODES[status] ?? "", headers };
    if (NULL_BODY_STATUSES.has(status) || method === "HEAD") {
      await response.body.dump();
      return new Response(null, responseInit);
    }
    return new Response(await responseBody(response.body, headers), responseInit);
  }

  return {
    fetch: modelFetch as typeof fetch,
    close() {
      // Once: undici refuses to close an agent twice.
      closing ??= agent.close();
      return closing;
    },
  };
}
