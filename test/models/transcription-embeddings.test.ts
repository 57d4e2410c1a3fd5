import { cosineSimilarity, embed, embedMany, experimental_transcribe as transcribe } from "ai";
import { describe, expect } from "vitest";
import { toModelProviderError } from "../../src/models/model-failure.ts";
import { createModelRegistry } from "../../src/models/model-registry.ts";
import type { ModelTransport } from "../../src/models/model-transport.ts";
import { type ModelFixtures, modelTest } from "./model-fixtures.ts";

/** A mono 16-bit PCM WAV file of a 440 Hz tone, header written by hand. */
function wavFile(seconds: number, sampleRate = 8000): Uint8Array {
  const samples = Math.round(seconds * sampleRate);
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write("WAVE", 8, "ascii");
  buffer.write("fmt ", 12, "ascii");
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(samples * 2, 40);
  for (let index = 0; index < samples; index += 1) {
    buffer.writeInt16LE(
      Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / sampleRate)),
      44 + index * 2,
    );
  }
  return new Uint8Array(buffer);
}

const test = modelTest({ embeddingDimensions: 64 });

/** Each test runs over the platform's fetch and over the transport the service uses. */
const clients = [
  ["the platform's fetch", (_transport: ModelTransport) => undefined],
  ["the model transport", (transport: ModelTransport) => transport.fetch],
] as const;

describe.each(clients)("transcription through the registry over %s", (_, fetchOf) => {
  const registry = ({ fake, transport }: ModelFixtures) =>
    createModelRegistry({
      providerKeys: { openai: "sk-openai" },
      openaiBaseUrl: fake.url,
      fetch: fetchOf(transport),
    });

  test("uploads the audio as multipart and returns the provider's text", async ({
    fake,
    transport,
  }) => {
    const audio = wavFile(0.5);
    fake.scriptTranscription({ text: "hello from the tone" });
    const result = await transcribe({
      model: registry({ fake, transport }).resolveTranscriptionModel("openai:whisper-1"),
      audio,
    });
    expect(result.text).toBe("hello from the tone");
    const [request] = fake.requests;
    expect(request?.path).toBe("/v1/audio/transcriptions");
    expect(request?.headers.authorization).toBe("Bearer sk-openai");
    expect(request?.form?.fields.model).toBe("whisper-1");
    expect(request?.form?.file?.type).toBe("audio/wav");
    expect(request?.form?.file?.name).toBe("audio.wav");
    expect(Buffer.compare(request?.form?.file?.bytes ?? Buffer.alloc(0), Buffer.from(audio))).toBe(
      0,
    );
  });

  test("reads verbose JSON (segments and duration) when asked for it", async ({
    fake,
    transport,
  }) => {
    fake.scriptTranscription({ text: "two seconds", durationSeconds: 2, language: "english" });
    const result = await transcribe({
      model: registry({ fake, transport }).resolveTranscriptionModel("openai:whisper-1"),
      audio: wavFile(0.1),
      providerOptions: { openai: { temperature: 0 } },
    });
    expect(fake.requests[0]?.form?.fields.response_format).toBe("verbose_json");
    expect(result).toMatchObject({ text: "two seconds", durationInSeconds: 2, language: "en" });
    expect(result.segments).toEqual([{ text: "two seconds", startSecond: 0, endSecond: 2 }]);
  });

  test("goes to a dedicated speech-to-text server with its own key, never the provider's", async ({
    fake,
    transport,
  }) => {
    const model = registry({ fake, transport }).resolveTranscriptionModel(
      "openai:whisper-large-v3",
      {
        baseUrl: fake.url,
        apiKey: "whisper-key",
      },
    );
    const result = await transcribe({ model, audio: wavFile(0.1) });
    expect(result.text).toMatch(/^Transcript of audio\.wav \(\d+ bytes\)$/);
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer whisper-key");

    const keyless = createModelRegistry({ providerKeys: { openai: "sk-openai" } });
    await transcribe({
      model: keyless.resolveTranscriptionModel("openai:whisper-1", { baseUrl: fake.url }),
      audio: wavFile(0.1),
    });
    expect(String(fake.requests[1]?.headers.authorization)).not.toContain("sk-openai");
  });

  test("turns a provider failure into a clear error", async ({ fake, transport }) => {
    fake.scriptTranscription({ status: 500, errorMessage: "GPU on fire at /srv/whisper" });
    const failure = await transcribe({
      model: registry({ fake, transport }).resolveTranscriptionModel("openai:whisper-1"),
      audio: wavFile(0.1),
      maxRetries: 0,
    }).catch((error: unknown) => error);
    const mapped = toModelProviderError(failure, "openai:whisper-1");
    expect(mapped.message).toBe(
      "The model openai:whisper-1 failed: the provider had an internal error (HTTP 500)",
    );
    expect(mapped.message).not.toContain("GPU");
  });
});

describe.each(clients)("embeddings through the registry over %s", (_, fetchOf) => {
  const model = ({ fake, transport }: ModelFixtures) =>
    createModelRegistry({
      providerKeys: { openai: "sk" },
      openaiBaseUrl: fake.url,
      fetch: fetchOf(transport),
    }).resolveEmbeddingModel("openai:text-embedding-3-small");

  test("returns deterministic unit vectors that rank related texts higher, with usage", async ({
    fake,
    transport,
  }) => {
    const { embeddings, usage } = await embedMany({
      model: model({ fake, transport }),
      values: ["refund policy for orders", "orders refund policy", "weather in Lisbon"],
    });
    expect(embeddings).toHaveLength(3);
    for (const vector of embeddings) {
      expect(vector).toHaveLength(64);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 10);
    }
    const [first, second, third] = embeddings as [number[], number[], number[]];
    // Three shared words out of four and three: cos = 3 / sqrt(4 * 3).
    expect(cosineSimilarity(first, second)).toBeCloseTo(Math.sqrt(3) / 2, 10);
    expect(cosineSimilarity(first, third)).toBeLessThan(0.5);
    expect(usage.tokens).toBe(10);
    const again = await embed({
      model: model({ fake, transport }),
      value: "refund policy for orders",
    });
    expect(again.embedding).toEqual(first);
    expect(fake.requests[0]?.body).toMatchObject({
      model: "text-embedding-3-small",
      encoding_format: "float",
    });
  });

  test("sends embeddings to LLM_BASE_URL when it is set", async ({ fake, transport }) => {
    const local = createModelRegistry({
      providerKeys: {},
      llmBaseUrl: fake.url,
      fetch: fetchOf(transport),
    });
    const result = await embed({
      model: local.resolveEmbeddingModel("openai:nomic-embed-text"),
      value: "hi",
    });
    expect(result.embedding).toHaveLength(64);
    expect(fake.requests[0]?.body).toMatchObject({ model: "nomic-embed-text", input: ["hi"] });
  });
});
