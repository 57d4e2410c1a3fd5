import { createServer, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a fake platform received, named by the API method it called. */
export type PlatformCall = {
  /** The API method (`sendMessage`, `chat.postMessage`, `messages`, `media`…). */
  name: string;
  method: string;
  /** Path and query string, as requested. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, form fields as an object, or the raw string (empty when there was no body). */
  body: unknown;
  at: number;
};

export type ScriptedFailure = {
  status: number;
  retryAfterSeconds?: number;
  /** Answered as is; when absent the fake answers in its platform's own error format. */
  body?: unknown;
};

export type PlatformReply = {
  status: number;
  headers?: Record<string, string>;
} & ({ json: unknown } | { bytes: Buffer; contentType: string });

export type PlatformRequest = { call: PlatformCall; url: URL };

/** What a fake routes a request to: the method's name and how it answers. */
export type Endpoint = { name: string; answer: () => PlatformReply };

export type PlatformApi = {
  baseUrl: string;
  /** Every request received, in arrival order. */
  calls: PlatformCall[];
  callsTo(name: string): PlatformCall[];
  /** Resolves with the calls to `name` once there are at least `count` of them. */
  waitForCalls(name: string, count: number, timeoutMs?: number): Promise<PlatformCall[]>;
  /** The next `times` calls to `name` fail this way, before any check of theirs. */
  failNext(name: string, failure: ScriptedFailure, times?: number): void;
  close(): Promise<void>;
};

type PlatformServerOptions = {
  /** Names the fake in timeout messages. */
  platform: string;
  route(request: PlatformRequest): Endpoint;
  /** The platform's own error answer for a scripted failure without a body. */
  failureReply(failure: ScriptedFailure): PlatformReply;
};

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): PlatformReply {
  return { status, json: body, headers };
}

/** A Retry-After header when the failure names one. */
export function retryAfterHeader(failure: ScriptedFailure): Record<string, string> {
  return failure.retryAfterSeconds === undefined
    ? {}
    : { "retry-after": String(failure.retryAfterSeconds) };
}

/** The body's fields when it is an object (JSON or form), else none. */
export function fieldsOf(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === "object" && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

/** The bearer token of an Authorization header, if there is one. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer (.+)$/i.exec(headers.authorization ?? "");
  return match?.[1];
}

async function readBody(incoming: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const contentType = incoming.headers["content-type"] ?? "";
  if (contentType.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  if (contentType.includes("application/json") && text !== "") {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * A real HTTP server on 127.0.0.1 shared by the platform fakes: it records every call, answers
 * scripted failures first, and otherwise lets the fake's route answer.
 */
export async function startPlatformServer(options: PlatformServerOptions): Promise<PlatformApi> {
  const calls: PlatformCall[] = [];
  const failures = new Map<string, ScriptedFailure[]>();
  const waiters = new Set<() => void>();
  const callsTo = (name: string) => calls.filter((call) => call.name === name);

  const server = createServer((incoming, response) => {
    const send = (reply: PlatformReply) => {
      const payload = "json" in reply ? Buffer.from(JSON.stringify(reply.json)) : reply.bytes;
      response.writeHead(reply.status, {
        ...reply.headers,
        "content-type": "json" in reply ? "application/json; charset=utf-8" : reply.contentType,
        "content-length": payload.length,
      });
      response.end(payload);
    };
    readBody(incoming)
      .then((body) => {
        const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
        const call: PlatformCall = {
          name: "",
          method: incoming.method ?? "GET",
          path: incoming.url ?? "/",
          headers: incoming.headers,
          body,
          at: Date.now(),
        };
        const endpoint = options.route({ call, url });
        call.name = endpoint.name;
        calls.push(call);
        for (const wake of [...waiters]) wake();
        const failure = failures.get(endpoint.name)?.shift();
        if (!failure) return send(endpoint.answer());
        if (failure.body === undefined) return send(options.failureReply(failure));
        send(json(failure.status, failure.body, retryAfterHeader(failure)));
      })
      .catch(() => send(json(500, { error: "fake platform failure" })));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    calls,
    callsTo,
    waitForCalls(name, count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const matching = callsTo(name);
          if (matching.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(matching);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `fake ${options.platform}: expected ${count} calls to ${name}, got ${callsTo(name).length}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    failNext(name, failure, times = 1) {
      const queue = failures.get(name) ?? [];
      for (let index = 0; index < times; index += 1) queue.push(failure);
      failures.set(name, queue);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
