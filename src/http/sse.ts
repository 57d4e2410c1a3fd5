import { once } from "node:events";
import type { FastifyReply, FastifyRequest } from "fastify";

/** A Server-Sent Events response (docs/contracts.md, "Streaming"). */
export type SseStream = {
  /** Aborted when the client goes away before the stream ends. */
  readonly signal: AbortSignal;
  /**
   * `event: <name>` followed by one `data:` line per line of `data`, and `id: <id>` when given
   * (what the client sends back as Last-Event-ID when it reconnects).
   */
  event(name: string, data: string, id?: string): Promise<void>;
  /** A frame with only `data:` lines (`[DONE]`, `[ERROR] …`). */
  data(data: string): Promise<void>;
  /** Ends the response; further writes are ignored. */
  end(): void;
};

/** SSE_PING_INTERVAL_MS, as the routes that stream receive it (config.agents). */
export type SsePingSettings = { ssePingIntervalMs: number };

export type SseOptions = {
  /** A `: ping` comment is sent after this long without any other frame. */
  pingIntervalMs: number;
};

const LINE_BREAK = /\r\n|\r|\n/;

function frame(name: string | null, data: string, id?: string): string {
  const lines = data
    .split(LINE_BREAK)
    .map((line) => `data: ${line}\n`)
    .join("");
  return `${name === null ? "" : `event: ${name}\n`}${id === undefined ? "" : `id: ${id}\n`}${lines}\n`;
}

/**
 * Takes the response over from Fastify and starts an event stream: status 200 and the SSE
 * headers go out at once (with the headers hooks already set, such as X-Request-Id). Writes wait
 * for the socket to drain, so a slow client slows the producer instead of filling memory.
 */
export function openSseStream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: SseOptions,
): SseStream {
  reply.hijack();
  const raw = reply.raw;
  const disconnected = new AbortController();
  let ended = false;

  const inherited = Object.entries(reply.getHeaders()).filter(
    (entry): entry is [string, string | number | string[]] => entry[1] !== undefined,
  );
  raw.writeHead(200, {
    ...Object.fromEntries(inherited),
    "x-request-id": request.id,
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  raw.flushHeaders();

  const ping = setInterval(() => {
    if (!ended) raw.write(": ping\n\n");
  }, options.pingIntervalMs);
  const stop = () => {
    ended = true;
    clearInterval(ping);
  };
  raw.on("close", () => {
    if (!ended) disconnected.abort(new Error("The client closed the stream"));
    stop();
  });

  async function write(text: string): Promise<void> {
    if (ended || raw.destroyed) return;
    ping.refresh();
    if (!raw.write(text)) {
      await Promise.race([once(raw, "drain"), once(raw, "close")]).catch(() => undefined);
    }
  }

  return {
    signal: disconnected.signal,
    event: (name, data, id) => write(frame(name, data, id)),
    data: (data) => write(frame(null, data)),
    end() {
      if (ended) return;
      stop();
      raw.end();
    },
  };
}
