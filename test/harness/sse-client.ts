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
