import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { countTokens } from "../token-count.ts";
import type { Embedder, EmbedOptions, EmbedResult } from "./embedder-types.ts";
import { EmbedderError } from "./embedder-types.ts";
import { type HashedFeatureConfig, hashedFeatureVector } from "./hashed-features.ts";

export const LOCAL_EMBEDDER_ID = "local:hash-ngram-v1";
export const LOCAL_EMBEDDER_DEFAULT_DIMENSIONS = 512;

/** The features chosen by measurement: see docs/decisions/default-embedder.md. */
export const LOCAL_EMBEDDER_FEATURES: Omit<HashedFeatureConfig, "dimensions"> = {
  unigramWeight: 1,
  bigramWeight: 0,
  charNgramWeight: 1,
  charNgramMin: 3,
  charNgramMax: 4,
  charNgramsOnContentWords: true,
  stopwords: true,
  stemming: "porter",
  termFrequency: "sqrt",
};

// Hashing is synchronous CPU work; the event loop gets a turn after each slice of texts so that an
// API served by the same process stays responsive while a worker embeds thousands of chunks.
const TEXTS_PER_SLICE = 32;

/** The offline, deterministic default embedder (hashed words and character n-grams). */
export function createLocalEmbedder(options: { dimensions?: number } = {}): Embedder {
  return createHashedEmbedder({
    id: LOCAL_EMBEDDER_ID,
    config: {
      ...LOCAL_EMBEDDER_FEATURES,
      dimensions: options.dimensions ?? LOCAL_EMBEDDER_DEFAULT_DIMENSIONS,
    },
  });
}

/** An embedder over any feature-hashing configuration (the candidates of the embedder bench). */
export function createHashedEmbedder(options: {
  id: string;
  config: HashedFeatureConfig;
}): Embedder {
  const { id, config } = options;
  if (
    !Number.isInteger(config.dimensions) ||
    config.dimensions < 16 ||
    config.dimensions > 16_000
  ) {
    throw new EmbedderError(
      "The local embedder needs a whole number of dimensions between 16 and 16000",
    );
  }
  return {
    id,
    dimensions: config.dimensions,
    async embed(texts: string[], embedOptions: EmbedOptions = {}): Promise<EmbedResult> {
      const vectors: number[][] = [];
      const stemCache = new Map<string, string>();
      let tokens = 0;
      for (let start = 0; start < texts.length; start += TEXTS_PER_SLICE) {
        if (start > 0) await yieldToEventLoop();
        embedOptions.signal?.throwIfAborted();
        for (const text of texts.slice(start, start + TEXTS_PER_SLICE)) {
          vectors.push(hashedFeatureVector(text, config, stemCache));
          tokens += countTokens(text);
        }
      }
      embedOptions.signal?.throwIfAborted();
      return { vectors, usage: { tokens } };
    },
  };
}
