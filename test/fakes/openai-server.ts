import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { handleChat } from "./openai-fake-chat.ts";
import { sendError } from "./openai-fake-http.ts";
import { handleEmbeddings, handleTranscription } from "./openai-fake-media.ts";
import type {
  ChatReply,
  EmbeddingsReply,
  RecordedRequest,
  Scripted,
  TranscriptionReply,
} from "./openai-fake-types.ts";

export type * from "./openai-fake-types.ts";

export type FakeOpenAIOptions = {
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** Chat reply when no script is queued (default: "Answer: " + the last user message). */
  defaultChat?: Scripted<ChatReply>;
  /** Embedding size when the request does not name `dimensions` (default 1536). */
  embeddingDimensions?: number;
};

export type FakeOpenAI = {
  /** Base URL ending in /v1, for `OPENAI_BASE_URL`, `LLM_BASE_URL` or a transcription base URL. */
  url: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Queues chat completion replies; each request takes the next one, then the default applies. */
  script(...replies: Array<Scripted<ChatReply>>): void;
  /** Replaces the default chat reply (undefined restores the built-in one). */
  setDefaultChat(reply: Scripted<ChatReply> | undefined): void;
  scriptEmbeddings(...replies: Array<Scripted<EmbeddingsReply>>): void;
  scriptTranscription(...replies: Array<Scripted<TranscriptionReply>>): void;
  /** Resolves with the first request that satisfies the predicate, now or once it does. */
  waitFor(
    predicate: (request: RecordedRequest) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedRequest>;
  close(): Promise<void>;
};

async function readRequest(incoming: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks);
  const contentType = incoming.headers["content-type"] ?? "";
  const record: RecordedRequest = {
    method: incoming.method ?? "GET",
    path: (incoming.url ?? "/").split("?")[0] ?? "/",
    headers: incoming.headers,
    body: undefined,
    rawBody,
    closedByClient: false,
  };
  if (contentType.includes("application/json") && rawBody.length > 0) {
    record.body = JSON.parse(rawBody.toString("utf8")) as Record<string, unknown>;
  } else if (contentType.includes("multipart/form-data")) {
    // The WHATWG Request of Node's fetch parses multipart bodies, as a real server's parser would.
    const form = await new Request("http://fake.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body: rawBody,
    }).formData();
    const fields: Record<string, string> = {};
    let file: NonNullable<RecordedRequest["form"]>["file"];
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") fields[name] = value;
      else if (name === "file") {
        file = {
          name: value.name,
          type: value.type,
          bytes: Buffer.from(await value.arrayBuffer()),
        };
      }
    }
    record.form = { fields, ...(file ? { file } : {}) };
  }
  return record;
}

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI wire format: chat completions (JSON and
 * SSE, tool calls, json_schema output), embeddings and audio transcriptions. Token counts are
 * whitespace-separated words: prompt_tokens over all message texts, completion_tokens over the
 * reply (content plus tool-call arguments), unless a script sets `usage`.
 */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const chatQueue: Array<Scripted<ChatReply>> = [];
  const embeddingsQueue: Array<Scripted<EmbeddingsReply>> = [];
  const transcriptionQueue: Array<Scripted<TranscriptionReply>> = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  let sequence = 0;
  let defaultChat = options.defaultChat;

  const take = <Reply>(
    queue: Array<Scripted<Reply>>,
    request: RecordedRequest,
    fallback?: Scripted<Reply>,
  ): Reply => {
    const next = queue.shift() ?? fallback ?? ({} as Reply);
    return typeof next === "function"
      ? (next as (request: RecordedRequest) => Reply)(request)
      : next;
  };

  async function handle(incoming: IncomingMessage, response: ServerResponse) {
    const clientGone = new AbortController();
    let record: RecordedRequest | undefined;
    response.on("close", () => {
      if (!response.writableFinished) {
        clientGone.abort();
        if (record) record.closedByClient = true;
        notify();
      }
    });
    try {
      record = await readRequest(incoming);
    } catch {
      sendError(response, 400, "the request body could not be parsed");
      return;
    }
    requests.push(record);
    notify();
    if (options.apiKey && incoming.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendError(response, 401, "Incorrect API key provided");
      return;
    }
    const signal = clientGone.signal;
    const route = `${record.method} ${record.path}`;
    sequence += 1;
    if (route === "POST /v1/chat/completions") {
      const reply = take(chatQueue, record, defaultChat);
      await handleChat(record, reply, response, signal, `chatcmpl-fake-${sequence}`);
    } else if (route === "POST /v1/embeddings") {
      const reply = take(embeddingsQueue, record);
      await handleEmbeddings(record, reply, response, signal, options.embeddingDimensions ?? 1536);
    } else if (route === "POST /v1/audio/transcriptions") {
      await handleTranscription(record, take(transcriptionQueue, record), response, signal);
    } else {
      sendError(response, 404, `Unknown route ${route}`);
    }
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch(() => {
      if (!response.headersSent) sendError(response, 500, "fake server failure");
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => chatQueue.push(...replies),
    setDefaultChat: (reply) => {
      defaultChat = reply;
    },
    scriptEmbeddings: (...replies) => embeddingsQueue.push(...replies),
    scriptTranscription: (...replies) => transcriptionQueue.push(...replies),
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = requests.find(predicate);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error("fake OpenAI: no matching request arrived in time"));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Hanging replies keep their sockets open; end them so close() returns.
        server.closeAllConnections();
      }),
  };
}
