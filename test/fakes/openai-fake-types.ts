import type { IncomingHttpHeaders } from "node:http";

/** One HTTP request the fake received, as the client sent it. */
export type RecordedRequest = {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined for other content types). */
  body: Record<string, unknown> | undefined;
  rawBody: Buffer;
  /** multipart/form-data requests: text fields and the uploaded `file`. */
  form?: {
    fields: Record<string, string>;
    file?: { name: string; type: string; bytes: Buffer };
  };
  /** The client went away before the reply was complete (abort, timeout, disconnect). */
  closedByClient: boolean;
};

/** How the reply travels; shared by every endpoint. */
export type TransportScript = {
  /** Answer with this HTTP status and an OpenAI error body instead of a result. */
  status?: number;
  errorMessage?: string;
  /** With `status`: the `retry-after-ms` header, which the AI SDK honours between retries. */
  retryAfterMs?: number;
  /** Wait this long before sending anything. */
  delayMs?: number;
  /** Never answer: the request stays open until the client gives up or the fake closes. */
  hang?: boolean;
};

export type ChatReply = TransportScript & {
  text?: string;
  /** Streaming: the exact content deltas (default: `text` split into word-sized pieces). */
  chunks?: string[];
  toolCalls?: Array<{ id?: string; name: string; arguments: unknown }>;
  /** Structured output: serialized as the message content. */
  json?: unknown;
  /** Default "stop", or "tool_calls" when `toolCalls` is set. */
  finishReason?: string;
  usage?: { promptTokens?: number; completionTokens?: number };
  /** Streaming: pause between chunks. */
  chunkDelayMs?: number;
  /** Streaming: send this many content chunks, then nothing more (the stream never ends). */
  hangAfterChunks?: number;
  /** Streaming: send this many content chunks, then an error event, then end the stream. */
  failAfterChunks?: number;
};

export type EmbeddingsReply = TransportScript;

export type TranscriptionReply = TransportScript & {
  text?: string;
  language?: string;
  durationSeconds?: number;
};

/** A reply, or a function of the request that returns one. */
export type Scripted<Reply> = Reply | ((request: RecordedRequest) => Reply);
