import { APICallError, type EmbeddingModel, embedMany, RetryError } from "ai";
import { countTokens } from "../token-count.ts";
import type { Embedder, EmbedOptions, EmbedResult } from "./embedder-types.ts";
import { EmbedderError } from "./embedder-types.ts";

type ProviderOptions = Parameters<typeof embedMany>[0]["providerOptions"];

export type AiSdkEmbedderOptions = {
  /** `provider:model`, e.g. "openai:text-embedding-3-small". */
  id: string;
  model: EmbeddingModel;
  /** The vector length the model returns; any other length is refused before it reaches an index. */
  dimensions: number;
  /** Texts per request (default 100). */
  batchSize?: number;
  /** Retries per request on retryable errors (429, 5xx, network), with backoff (default 2). */
  maxRetries?: number;
  /** Passed to the provider, e.g. `{ openai: { dimensions: 512 } }` to shorten text-embedding-3 vectors. */
  providerOptions?: ProviderOptions;
};

const DEFAULT_EMBEDDING_BATCH_SIZE = 100;
const DEFAULT_EMBEDDING_MAX_RETRIES = 2;

/**
 * Any AI SDK embedding model as an Embedder: requests of `batchSize` texts, one after another,
 * each retried by the AI SDK; vectors L2-normalised like the local embedder's; usage as billed by
 * the provider (estimated when it reports none).
 */
export function createAiSdkEmbedder(options: AiSdkEmbedderOptions): Embedder {
  const batchSize = options.batchSize ?? DEFAULT_EMBEDDING_BATCH_SIZE;
  const maxRetries = options.maxRetries ?? DEFAULT_EMBEDDING_MAX_RETRIES;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new EmbedderError("The embedding batch size must be a positive whole number");
  }
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new EmbedderError("The embedding retry count must be a whole number of at least 0");
  }
  if (!Number.isInteger(options.dimensions) || options.dimensions < 1) {
    throw new EmbedderError("The embedding dimensions must be a positive whole number");
  }
  const { id, dimensions } = options;

  return {
    id,
    dimensions,
    async embed(texts: string[], embedOptions: EmbedOptions = {}): Promise<EmbedResult> {
      const vectors: number[][] = [];
      let tokens = 0;
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize);
        const result = await embedBatch(batch, embedOptions.signal);
        if (result.embeddings.length !== batch.length) {
          throw new EmbedderError(
            `The embedding model ${id} returned ${result.embeddings.length} vectors for ${batch.length} texts`,
          );
        }
        for (const embedding of result.embeddings) {
          if (embedding.length !== dimensions) {
            throw new EmbedderError(
              `The embedding model ${id} returned vectors of ${embedding.length} dimensions, configured for ${dimensions}`,
            );
          }
          vectors.push(normalise(embedding));
        }
        const reported = result.usage.tokens;
        tokens += Number.isFinite(reported)
          ? reported
          : batch.reduce((sum, text) => sum + countTokens(text), 0);
      }
      return { vectors, usage: { tokens } };
    },
  };

  async function embedBatch(values: string[], signal: AbortSignal | undefined) {
    try {
      return await embedMany({
        model: options.model,
        values,
        maxRetries,
        maxParallelCalls: 1,
        ...(signal ? { abortSignal: signal } : {}),
        ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
      });
    } catch (error) {
      // A cancelled job is not a provider failure: let the caller see its own abort reason.
      if (signal?.aborted) throw signal.reason;
      throw new EmbedderError(`The embedding model ${id} failed${describeFailure(error)}`, {
        cause: error,
      });
    }
  }
}

/** The HTTP status and attempt count, without the provider's message (it may echo secrets). */
function describeFailure(error: unknown): string {
  const attempts = RetryError.isInstance(error) ? error.errors.length : 1;
  const last = RetryError.isInstance(error) ? error.lastError : error;
  const status = APICallError.isInstance(last) ? last.statusCode : undefined;
  const parts = [
    status === undefined ? null : `HTTP ${status}`,
    attempts > 1 ? `after ${attempts} attempts` : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

function normalise(vector: readonly number[]): number[] {
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm === 0) return [...vector];
  const scale = 1 / Math.sqrt(norm);
  return vector.map((value) => value * scale);
}
