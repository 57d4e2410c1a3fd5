import { createParser, type EventSourceMessage } from "eventsource-parser";

export type SseResult = {
  status: number;
  headers: Headers;
  /** Raw body text as received. */
  raw: string;
  events: EventSourceMessage[];
  comments: string[];
  /** The JSON body when the server answered without a stream (an error before it started). */
  json?: Record<string, unknown>;
};

/**
 * POSTs to an SSE endpoint with fetch and parses the stream with eventsource-parser, as a
 * browser or SDK client would. `onEvent` may abort the request through `controller`.
 */
export async function postSse(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: { controller?: AbortController; onEvent?: (event: EventSourceMessage) => void } = {},
): Promise<SseResult> {
  const controller = options.controller ?? new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const result: SseResult = {
    status: response.status,
    headers: response.headers,
    raw: "",
    events: [],
    comments: [],
  };
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
    result.raw = await response.text();
    result.json = JSON.parse(result.raw);
    return result;
  }
  const parser = createParser({
    onEvent(event) {
      result.events.push(event);
      options.onEvent?.(event);
    },
    onComment(comment) {
      result.comments.push(comment);
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(chunk, { stream: true });
      result.raw += text;
      parser.feed(text);
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return result;
}

/** The concatenated `answer` fragments, the parsed `endpoint_response`, and the frame after it. */
export function summarize(result: SseResult) {
  const answer = result.events
    .filter((event) => event.event === "answer")
    .map((event) => event.data)
    .join("");
  const final = result.events.find((event) => event.event === "endpoint_response");
  return {
    answer,
    response: final ? (JSON.parse(final.data) as Record<string, unknown>) : undefined,
    last: result.events.at(-1)?.data,
  };
}

/** A GET event stream kept open: its events as they arrive, until `close()`. */
export type OpenSse = {
  status: number;
  headers: Headers;
  events: EventSourceMessage[];
  comments: string[];
  /** The JSON body when the server answered without a stream. */
  json?: Record<string, unknown>;
  /** Resolves once `count` events arrived (all of them), or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<EventSourceMessage[]>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): Promise<void>;
};

/** GETs an SSE endpoint with fetch and reads its events as they come, as EventSource would. */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<OpenSse> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const base = { status: response.status, headers: response.headers, events, comments };
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
    const json = (await response.json()) as Record<string, unknown>;
    return {
      ...base,
      json,
      waitFor: () => Promise.reject(new Error(`not a stream: ${JSON.stringify(json)}`)),
      ended: Promise.resolve(),
      close: async () => {},
    };
  }
  const parser = createParser({
    onEvent(event) {
      events.push(event);
      for (const wake of waiters) wake();
    },
    onComment: (comment) => comments.push(comment),
  });
  const ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  })();
  return {
    ...base,
    ended,
    waitFor(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (events.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(events.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${events.length} of ${count} events after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      controller.abort();
      await ended;
    },
  };
}
