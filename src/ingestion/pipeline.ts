import type { Embedder } from "./embedders/embedder-types.ts";
import type { LoadedSection } from "./loaders/index.ts";
import { type SplitterOptions, splitIntoChunks } from "./splitter.ts";

// The stages of ingestion, each swappable: a loader (file loaders, web page, web site) gives
// sections, the splitter cuts them into chunks, the chunks are compared by content hash with what
// is stored, and only new chunks are embedded; the index write happens in the knowledge domain.

/** A chunk ready to be stored, before its vector is computed. */
export type PreparedChunk = {
  position: number;
  text: string;
  tokenCount: number;
  startOffset: number;
  endOffset: number;
  page: number | null;
  section: string | null;
  sourceUrl: string | null;
  metadata: Record<string, unknown>;
  contentHash: string;
};

export type StoredChunk = { id: string; contentHash: string; position: number };

export type ChunkSyncPlan = {
  /** Chunks whose content is new: to embed and insert. */
  add: PreparedChunk[];
  /** Stored chunks whose content is gone. */
  removeIds: string[];
  /** Stored chunks kept as they are but now at another position. */
  moves: { id: string; position: number }[];
  /** True when the stored chunks already are exactly the new ones: nothing to write. */
  unchanged: boolean;
  chunkCount: number;
  tokenCount: number;
};

/** Splits loaded sections into chunks that remember their page, heading and source URL. */
export function prepareChunks(
  sections: LoadedSection[],
  options: { sourceUrl?: string | null; splitter?: SplitterOptions } = {},
): PreparedChunk[] {
  const chunks = splitIntoChunks(sections, options.splitter);
  return chunks.map((chunk) => {
    const { page, slide, heading, ...rest } = chunk.metadata as LoadedSection["metadata"];
    const metadata: Record<string, unknown> = { ...rest };
    if (slide !== undefined) metadata.slide = slide;
    return {
      position: chunk.index,
      text: chunk.text,
      tokenCount: chunk.tokenCount,
      startOffset: chunk.startOffset,
      endOffset: chunk.endOffset,
      // A slide number is the page of a presentation.
      page: page ?? slide ?? null,
      section: chunk.heading ?? heading ?? rest.sheet ?? null,
      sourceUrl: options.sourceUrl ?? null,
      metadata,
      contentHash: chunk.contentHash,
    };
  });
}

/**
 * Matches new chunks to stored ones by content hash: a stored chunk with the same text is kept
 * (and its vector reused), the rest is added or removed. A re-sync of unchanged content yields
 * `unchanged` and writes nothing.
 */
export function planChunkSync(stored: StoredChunk[], prepared: PreparedChunk[]): ChunkSyncPlan {
  const available = new Map<string, StoredChunk[]>();
  for (const chunk of stored) {
    const same = available.get(chunk.contentHash);
    if (same) same.push(chunk);
    else available.set(chunk.contentHash, [chunk]);
  }
  const add: PreparedChunk[] = [];
  const moves: { id: string; position: number }[] = [];
  for (const chunk of prepared) {
    const match = available.get(chunk.contentHash)?.shift();
    if (!match) add.push(chunk);
    else if (match.position !== chunk.position)
      moves.push({ id: match.id, position: chunk.position });
  }
  const removeIds = [...available.values()].flat().map((chunk) => chunk.id);
  return {
    add,
    removeIds,
    moves,
    unchanged: add.length === 0 && removeIds.length === 0 && moves.length === 0,
    chunkCount: prepared.length,
    tokenCount: prepared.reduce((sum, chunk) => sum + chunk.tokenCount, 0),
  };
}

// Texts per embed call: bounds memory and lets a cancelled job stop between batches.
const EMBED_BATCH = 256;

/** Vectors for the chunks, in order, with the tokens the embedder reports. */
export async function embedChunks(
  embedder: Embedder,
  chunks: PreparedChunk[],
  signal?: AbortSignal,
): Promise<{ vectors: number[][]; tokens: number }> {
  const vectors: number[][] = [];
  let tokens = 0;
  for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
    signal?.throwIfAborted();
    const texts = chunks.slice(start, start + EMBED_BATCH).map((chunk) => chunk.text);
    const result = await embedder.embed(texts, signal ? { signal } : {});
    vectors.push(...result.vectors);
    tokens += result.usage.tokens;
  }
  return { vectors, tokens };
}
