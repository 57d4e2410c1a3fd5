import { createAiSdkEmbedder } from "../../ingestion/embedders/ai-sdk-embedder.ts";
import type { Embedder } from "../../ingestion/embedders/embedder-types.ts";
import {
  createLocalEmbedder,
  LOCAL_EMBEDDER_DEFAULT_DIMENSIONS,
  LOCAL_EMBEDDER_ID,
} from "../../ingestion/embedders/local-embedder.ts";
import type { ModelRegistry } from "../../models/model-registry.ts";

export type EmbedderChoice = { embedderId: string; dimensions: number };

export type EmbedderResolverOptions = {
  models: Pick<ModelRegistry, "resolveEmbeddingModel">;
  /** EMBEDDINGS_MODEL; undefined selects the local embedder. */
  embeddingsModel: string | undefined;
  embeddingsDimensions: number;
};

// OpenAI's text-embedding-3 models return vectors of any requested size.
const SHORTENABLE = /^openai:text-embedding-3-/;

/** Turns the embedder id stored on a datastore back into an Embedder (one instance per id). */
export function createEmbedderResolver(options: EmbedderResolverOptions) {
  const cache = new Map<string, Embedder>();
  const defaultChoice: EmbedderChoice = options.embeddingsModel
    ? { embedderId: options.embeddingsModel, dimensions: options.embeddingsDimensions }
    : { embedderId: LOCAL_EMBEDDER_ID, dimensions: LOCAL_EMBEDDER_DEFAULT_DIMENSIONS };

  function build({ embedderId, dimensions }: EmbedderChoice): Embedder {
    if (embedderId === LOCAL_EMBEDDER_ID) return createLocalEmbedder({ dimensions });
    return createAiSdkEmbedder({
      id: embedderId,
      model: options.models.resolveEmbeddingModel(embedderId),
      dimensions,
      ...(SHORTENABLE.test(embedderId) ? { providerOptions: { openai: { dimensions } } } : {}),
    });
  }

  return {
    /** What a new datastore uses: EMBEDDINGS_MODEL, else the local embedder. */
    defaultChoice: (): EmbedderChoice => ({ ...defaultChoice }),
    embedderFor(choice: EmbedderChoice): Embedder {
      const key = `${choice.embedderId}#${choice.dimensions}`;
      let embedder = cache.get(key);
      if (!embedder) {
        embedder = build(choice);
        cache.set(key, embedder);
      }
      return embedder;
    },
  };
}

export type EmbedderResolver = ReturnType<typeof createEmbedderResolver>;
