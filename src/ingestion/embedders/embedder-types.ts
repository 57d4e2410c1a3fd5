export type EmbedOptions = { signal?: AbortSignal };

export type EmbedResult = {
  /** One vector per input text, in input order, each of `dimensions` numbers. */
  vectors: number[][];
  /** Tokens the provider billed (for the local embedder: the estimated tokens it read, at no cost). */
  usage: { tokens: number };
};

/**
 * Turns texts into vectors compared by cosine similarity. A vector space is identified by the pair
 * (id, dimensions): vectors from different pairs must never be compared, so a change re-embeds.
 */
export interface Embedder {
  /** `provider:model`, e.g. "local:hash-ngram-v1" or "openai:text-embedding-3-small". */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], options?: EmbedOptions): Promise<EmbedResult>;
}

/** An embedding call that failed: bad options, a provider error after retries, a wrong answer. */
export class EmbedderError extends Error {
  override readonly name = "EmbedderError";
}
