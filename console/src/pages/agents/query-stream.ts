import { type ApiData, ApiError, basePath } from "../../api/client.ts";

type QueryResponse = ApiData<"/api/agents/{id}/query", "post">;
/** The JSON of the stream's `endpoint_response` frame: the answer with its sources and usage. */
export type QueryAnswer = Extract<QueryResponse, { answer: string }>;

/** A failure the service reported inside the stream (`data: [ERROR] …`), after some text. */
export class StreamError extends Error {
  constructor(message: string) {
    super(message || "The answer failed while it was written.");
    this.name = "StreamError";
  }
}

async function refusal(response: Response): Promise<ApiError> {
  let message = `The service answered ${response.status} ${response.statusText}`.trim();
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === "string" && body.error) message = body.error;
  } catch {
    // Not JSON: the status line says what there is to say.
  }
  const retryAfter = Number(response.headers.get("retry-after"));
  return new ApiError(
    response.status,
    message,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

/**
 * POST /api/agents/{id}/query with `streaming: true` (openapi-fetch cannot read a stream): each
 * `answer` frame's text goes to `onText` as it arrives; resolves with the `endpoint_response`.
 * Frames follow the spec's SSE framing: `event:` then `data:` lines, a blank line between.
 */
export async function streamAnswer(
  agentId: string,
  body: { query: string; conversationId?: string },
  onText: (fragment: string) => void,
  signal: AbortSignal,
): Promise<QueryAnswer> {
  const response = await fetch(`${basePath}/api/agents/${encodeURIComponent(agentId)}/query`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ ...body, streaming: true, channel: "dashboard" }),
    signal,
  });
  if (!response.ok) throw await refusal(response);
  if (!response.body) throw new StreamError("The service sent no answer.");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let answer: QueryAnswer | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, "\n");
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      let event = "message";
      const data: string[] = [];
      for (const line of frame.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(line[5] === " " ? 6 : 5));
      }
      if (data.length === 0) continue;
      const text = data.join("\n");
      if (event === "answer") onText(text);
      else if (event === "endpoint_response") answer = JSON.parse(text) as QueryAnswer;
      else if (text.startsWith("[ERROR]")) throw new StreamError(text.slice(7).trim());
    }
  }
  if (!answer) throw new StreamError("The answer ended before the service finished it.");
  return answer;
}
