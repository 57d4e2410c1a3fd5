import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAI } from "@ai-sdk/openai";
import { test as base, describe, expect } from "vitest";
import { createAiSdkEmbedder } from "../../src/ingestion/embedders/ai-sdk-embedder.ts";
import { EmbedderError } from "../../src/ingestion/embedders/embedder-types.ts";
import { createLocalEmbedder } from "../../src/ingestion/embedders/local-embedder.ts";
import { porterStem } from "../../src/ingestion/embedders/porter-stemmer.ts";
import { countTokens } from "../../src/ingestion/token-count.ts";
import { chunkCorpus, loadRetrievalCorpus } from "./retrieval-corpus.ts";
import { evaluateRetriever, topKByDotProduct } from "./retrieval-metrics.ts";

const dot = (left: number[], right: number[]) =>
  left.reduce((sum, value, index) => sum + value * right[index]!, 0);
const norm = (vector: number[]) => Math.sqrt(dot(vector, vector));

/**
 * - `fake`: an OpenAI-compatible embeddings server on 127.0.0.1 (`fakeEmbeddingsServer(8)`), set
 *   up once per file; its recorded `requests` start empty, and its failures at none, in every test
 *   that asks for it.
 */
const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("embeddingsServer", { scope: "file" }, async ({}, { onCleanup }) => {
    const fake = fakeEmbeddingsServer(8);
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    onCleanup(
      () =>
        new Promise<void>((resolve, reject) =>
          fake.server.close((error) => (error ? reject(error) : resolve())),
        ),
    );
    const baseURL = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
    return { ...fake, baseURL };
  })
  .extend("fake", ({ embeddingsServer }) => {
    embeddingsServer.requests.length = 0;
    embeddingsServer.state.failuresLeft = 0;
    return embeddingsServer;
  });

describe("local embedder", () => {
  test("returns unit vectors of the configured size with estimated usage", async () => {
    const texts = ["How do I return a camera?", "Thermostat wiring needs a C wire.", "?!"];
    const result = await createLocalEmbedder().embed(texts);
    expect(result.vectors).toHaveLength(3);
    for (const vector of result.vectors) {
      expect(vector).toHaveLength(512);
      expect(norm(vector)).toBeCloseTo(1, 12);
    }
    expect(result.usage.tokens).toBe(texts.reduce((sum, text) => sum + countTokens(text), 0));
    const wide = await createLocalEmbedder({ dimensions: 768 }).embed(["camera"]);
    expect(wide.vectors[0]).toHaveLength(768);
    expect(() => createLocalEmbedder({ dimensions: 3 })).toThrow(EmbedderError);
  });

  test("gives the same vector on every run and machine", async () => {
    const text = "Kestrel Plus keeps 30 days of video history for up to four cameras.";
    const first = (await createLocalEmbedder().embed([text])).vectors[0]!;
    const second = (await createLocalEmbedder().embed(["unrelated warm-up", text])).vectors[1]!;
    expect(second).toEqual(first);
    // Pinned digest: integer hashing, sqrt and division only, so any platform gives these bits.
    const digest = createHash("sha256")
      .update(first.map((value) => value.toFixed(12)).join(","))
      .digest("hex");
    expect(digest).toBe("fba5836cb0f68afa9ac48e3e20044f96f3c4b9f964ef755bb9f969814e4af3d5");
    expect(first.filter((value) => value !== 0)).toHaveLength(77);
  });

  test("ignores case, diacritics and Unicode compatibility forms", async () => {
    const { vectors } = await createLocalEmbedder().embed([
      "Café RÉSUMÉ ２０２４",
      "cafe resume 2024",
    ]);
    expect(vectors[0]).toEqual(vectors[1]);
  });

  test("puts paraphrases closer than unrelated texts", async () => {
    const { vectors } = await createLocalEmbedder().embed([
      "How can I return my camera and get a refund?",
      "Returning a camera: refunds are issued after the return arrives.",
      "The thermostat needs a common wire for constant power.",
    ]);
    const [question, related, unrelated] = vectors as [number[], number[], number[]];
    expect(dot(question, related)).toBeGreaterThan(dot(question, unrelated) + 0.1);
  });

  test("stops when the job is cancelled", async () => {
    const controller = new AbortController();
    controller.abort(new Error("job cancelled"));
    await expect(
      createLocalEmbedder().embed(["text"], { signal: controller.signal }),
    ).rejects.toThrow("job cancelled");
  });

  test("stems like Porter's reference implementation", () => {
    const pairs: Array<[string, string]> = [
      ["caresses", "caress"],
      ["ponies", "poni"],
      ["agreed", "agre"],
      ["motoring", "motor"],
      ["hopping", "hop"],
      ["filing", "file"],
      ["happy", "happi"],
      ["relational", "relat"],
      ["conditional", "condit"],
      ["generalization", "gener"],
      ["hopeful", "hope"],
      ["adjustable", "adjust"],
      ["adoption", "adopt"],
      ["controll", "control"],
      ["returns", "return"],
      ["returned", "return"],
      ["returning", "return"],
    ];
    for (const [word, stem] of pairs) expect(porterStem(word)).toBe(stem);
  });
});

describe("local embedder retrieval quality", () => {
  // Measured with bench/embedder-choice.ts for the production hash (seed 0): recall@5 0.781 and
  // MRR@10 0.611 on 512-token chunks. The floors leave a margin of 0.05 for deliberate changes.
  test("finds the answering document in the top 5 chunks for most questions", async () => {
    const { documents, questions } = await loadRetrievalCorpus();
    expect(documents.length).toBeGreaterThanOrEqual(60);
    expect(questions.length).toBeGreaterThanOrEqual(80);
    const embedder = createLocalEmbedder();
    const chunks = chunkCorpus(documents);
    const { vectors } = await embedder.embed(chunks.map((chunk) => chunk.text));
    const scores = await evaluateRetriever(questions, async (question) => {
      const [query] = (await embedder.embed([question])).vectors;
      return topKByDotProduct(query!, vectors, 10).map((index) => chunks[index]!.documentId);
    });
    expect(scores.recallAt5).toBeGreaterThanOrEqual(0.73);
    expect(scores.mrr).toBeGreaterThanOrEqual(0.56);
  });
});

type EmbeddingRequest = { inputs: string[]; model: string; authorization: string | undefined };

/** An OpenAI-compatible POST /v1/embeddings on 127.0.0.1 that can fail its next requests. */
function fakeEmbeddingsServer(dimensions: number) {
  const requests: EmbeddingRequest[] = [];
  const state = { failuresLeft: 0 };
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (part: Buffer) => {
      body += part.toString("utf8");
    });
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/embeddings") {
        response.writeHead(404).end();
        return;
      }
      const payload = JSON.parse(body) as { input: string[]; model: string };
      requests.push({
        inputs: payload.input,
        model: payload.model,
        authorization: request.headers.authorization,
      });
      if (state.failuresLeft > 0) {
        state.failuresLeft -= 1;
        response.writeHead(500, { "content-type": "application/json", "retry-after-ms": "1" });
        response.end(JSON.stringify({ error: { message: "overloaded", type: "server_error" } }));
        return;
      }
      const data = payload.input.map((text, index) => ({
        object: "embedding",
        index,
        embedding: fakeVector(text, dimensions),
      }));
      const tokens = payload.input.reduce((sum, text) => sum + text.split(" ").length, 0);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          object: "list",
          data,
          model: payload.model,
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        }),
      );
    });
  });
  return { server, requests, state };
}

/** A deterministic, deliberately unnormalised vector derived from the text. */
function fakeVector(text: string, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, index) => ((text.length * (index + 3)) % 11) + 1);
}

describe("AI SDK embedder against an OpenAI-compatible server", () => {
  const embedderFor = (
    { baseURL }: { baseURL: string },
    options: { dimensions?: number; maxRetries?: number } = {},
  ) =>
    createAiSdkEmbedder({
      id: "openai:text-embedding-3-small",
      model: createOpenAI({ baseURL, apiKey: "test-key" }).embedding("text-embedding-3-small"),
      batchSize: 100,
      dimensions: options.dimensions ?? 8,
      maxRetries: options.maxRetries ?? 2,
    });

  test("sends batches of batchSize and returns normalised vectors in order with usage", async ({
    fake,
  }) => {
    const texts = Array.from({ length: 250 }, (_, index) => `text number ${index}`);
    const result = await embedderFor(fake).embed(texts);

    expect(fake.requests.map((request) => request.inputs.length)).toEqual([100, 100, 50]);
    expect(fake.requests.flatMap((request) => request.inputs)).toEqual(texts);
    expect(fake.requests.every((request) => request.model === "text-embedding-3-small")).toBe(true);
    expect(fake.requests.every((request) => request.authorization === "Bearer test-key")).toBe(
      true,
    );
    expect(result.vectors).toHaveLength(250);
    for (const [index, vector] of result.vectors.entries()) {
      const raw = fakeVector(texts[index]!, 8);
      expect(norm(vector)).toBeCloseTo(1, 12);
      expect(vector[0]! / vector[1]!).toBeCloseTo(raw[0]! / raw[1]!, 12);
    }
    expect(result.usage.tokens).toBe(250 * 3);
  });

  test("retries a request that failed with a 500", async ({ fake }) => {
    fake.state.failuresLeft = 1;
    const result = await embedderFor(fake).embed(["alpha", "beta"]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.inputs).toEqual(["alpha", "beta"]);
    expect(result.vectors).toHaveLength(2);
  });

  test("gives up after its retries with a clear error", async ({ fake }) => {
    fake.state.failuresLeft = 10;
    const failure = embedderFor(fake, { maxRetries: 1 }).embed(["alpha"]);
    await expect(failure).rejects.toThrow(EmbedderError);
    await expect(failure).rejects.toThrow(
      "The embedding model openai:text-embedding-3-small failed (HTTP 500, after 2 attempts)",
    );
    expect(fake.requests).toHaveLength(2);
  });

  test("refuses vectors of another size than configured", async ({ fake }) => {
    await expect(embedderFor(fake, { dimensions: 16 }).embed(["alpha"])).rejects.toThrow(
      "returned vectors of 8 dimensions, configured for 16",
    );
  });

  test("passes a cancelled job's reason through instead of calling the provider", async ({
    fake,
  }) => {
    const controller = new AbortController();
    controller.abort(new Error("job cancelled"));
    await expect(embedderFor(fake).embed(["alpha"], { signal: controller.signal })).rejects.toThrow(
      "job cancelled",
    );
    expect(fake.requests).toHaveLength(0);
  });
});
