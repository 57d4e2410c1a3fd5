import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { countWords, pause, sendError, sendJson, sendScriptedError } from "./openai-fake-http.ts";
import type { EmbeddingsReply, RecordedRequest, TranscriptionReply } from "./openai-fake-types.ts";

/**
 * A unit vector from hashed words (feature hashing with a sign bit): deterministic, and texts that
 * share words point in similar directions, so retrieval tests rank the way a reader expects.
 */
function fakeEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  for (const word of words) {
    const digest = createHash("sha256").update(word).digest();
    const index = digest.readUInt32BE(0) % dimensions;
    vector[index] = (vector[index] ?? 0) + ((digest[4] ?? 0) & 1 ? 1 : -1);
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/** Answers POST /v1/embeddings with one fake vector per input. */
export async function handleEmbeddings(
  request: RecordedRequest,
  reply: EmbeddingsReply,
  response: ServerResponse,
  signal: AbortSignal,
  defaultDimensions: number,
): Promise<void> {
  const body = request.body ?? {};
  const inputs = typeof body.input === "string" ? [body.input] : body.input;
  if (!Array.isArray(inputs) || inputs.some((input) => typeof input !== "string")) {
    sendError(response, 400, "input must be a string or an array of strings");
    return;
  }
  if (!(await pause(reply.delayMs, signal)) || reply.hang) return;
  if (sendScriptedError(response, reply)) return;
  const dimensions = typeof body.dimensions === "number" ? body.dimensions : defaultDimensions;
  const promptTokens = (inputs as string[]).reduce((total, input) => total + countWords(input), 0);
  sendJson(response, 200, {
    object: "list",
    model: body.model,
    data: (inputs as string[]).map((input, index) => {
      const vector = fakeEmbedding(input, dimensions);
      return {
        object: "embedding",
        index,
        embedding:
          body.encoding_format === "base64"
            ? Buffer.from(new Float32Array(vector).buffer).toString("base64")
            : vector,
      };
    }),
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  });
}

/** Answers POST /v1/audio/transcriptions in the `response_format` the client asked for. */
export async function handleTranscription(
  request: RecordedRequest,
  reply: TranscriptionReply,
  response: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const file = request.form?.file;
  if (!file) {
    sendError(response, 400, "file is required (multipart/form-data)");
    return;
  }
  if (!(await pause(reply.delayMs, signal)) || reply.hang) return;
  if (sendScriptedError(response, reply)) return;
  const text = reply.text ?? `Transcript of ${file.name} (${file.bytes.length} bytes)`;
  const duration = reply.durationSeconds ?? 1;
  const format = request.form?.fields.response_format ?? "json";
  if (format === "text" || format === "srt" || format === "vtt") {
    response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    response.end(text);
    return;
  }
  if (format === "verbose_json") {
    sendJson(response, 200, {
      task: "transcribe",
      language: reply.language ?? "english",
      duration,
      text,
      segments: [
        {
          id: 0,
          seek: 0,
          start: 0,
          end: duration,
          text,
          tokens: [],
          temperature: 0,
          avg_logprob: 0,
          compression_ratio: 1,
          no_speech_prob: 0,
        },
      ],
    });
    return;
  }
  sendJson(response, 200, { text });
}
