import { contentHash } from "../lib/content-hash.ts";
import { Boundary, type BoundaryStrength, segmentText, type TextUnit } from "./text-units.ts";
import { countTokens } from "./token-count.ts";

export type SplitterSection = { text: string; metadata: Record<string, unknown> };

export type Chunk = {
  /** The text to embed and index: the heading path (when `headingPrefix` is on), then the body. */
  text: string;
  /** Position among all chunks returned by one call. */
  index: number;
  tokenCount: number;
  /** Offsets of the body in the section's text (end exclusive); the heading prefix is not in it. */
  startOffset: number;
  endOffset: number;
  sectionIndex: number;
  /** Path of the headings in effect where the chunk starts, e.g. "Pricing > Enterprise". */
  heading: string | null;
  metadata: Record<string, unknown>;
  /** contentHash(text): unchanged chunks keep their hash across re-syncs. */
  contentHash: string;
};

export type SplitterOptions = {
  /** Target size of a chunk in estimated cl100k tokens (default 512). */
  chunkTokens?: number;
  /** Share of the target repeated at the start of the next chunk of the same section (default 0.15). */
  overlapRatio?: number;
  /** Prefix the heading path to each chunk's text so retrieval sees the context (default true). */
  headingPrefix?: boolean;
};

const DEFAULT_CHUNK_TOKENS = 512;
const DEFAULT_OVERLAP_RATIO = 0.15;

/** Options the splitter cannot honour (a chunk size that is not a sane number of tokens...). */
export class SplitterError extends Error {
  override readonly name = "SplitterError";
}

// A gap of a given strength may end a chunk once the chunk has reached this share of its budget:
// headings end chunks early, paragraphs a little later, sentences only near the target; word gaps
// are the fallback when nothing better fits.
const MIN_FILL: Record<BoundaryStrength, number> = {
  [Boundary.glue]: Number.POSITIVE_INFINITY,
  [Boundary.word]: Number.POSITIVE_INFINITY,
  [Boundary.sentence]: 0.7,
  [Boundary.paragraph]: 0.55,
  [Boundary.heading]: 0.3,
};
const HEADING_SEPARATOR = " > ";

/**
 * Splits loaded sections into token-sized chunks: at headings first, then blank lines, then
 * sentences, then words, never inside a word. Consecutive chunks of one heading section overlap
 * by whole sentences (or words when a sentence is too long). Deterministic.
 */
export function splitIntoChunks(
  sections: SplitterSection[],
  options: SplitterOptions = {},
): Chunk[] {
  const settings = resolveOptions(options);
  const chunks: Chunk[] = [];
  for (const [sectionIndex, section] of sections.entries()) {
    const units = segmentText(section.text);
    for (const span of planSpans(units, settings)) {
      const first = units[span.start]!;
      const last = units[span.end - 1]!;
      const body = section.text.slice(first.start, last.end);
      const path = headingPathAt(units, span.start, span.end);
      const heading = path.length > 0 ? path.join(HEADING_SEPARATOR) : null;
      const text = span.prefix ? `${span.prefix}\n\n${body}` : body;
      chunks.push({
        text,
        index: chunks.length,
        tokenCount: span.tokens,
        startOffset: first.start,
        endOffset: last.end,
        sectionIndex,
        heading,
        metadata: { ...section.metadata },
        contentHash: contentHash(text),
      });
    }
  }
  return chunks;
}

type Settings = { chunkTokens: number; overlapTokens: number; headingPrefix: boolean };
type Span = { start: number; end: number; prefix: string | null; tokens: number };

function resolveOptions(options: SplitterOptions): Settings {
  const chunkTokens = options.chunkTokens ?? DEFAULT_CHUNK_TOKENS;
  const overlapRatio = options.overlapRatio ?? DEFAULT_OVERLAP_RATIO;
  if (!Number.isInteger(chunkTokens) || chunkTokens < 16 || chunkTokens > 100_000) {
    throw new SplitterError(
      "The chunk size must be a whole number of tokens between 16 and 100000",
    );
  }
  if (!Number.isFinite(overlapRatio) || overlapRatio < 0 || overlapRatio > 0.5) {
    throw new SplitterError("The chunk overlap must be a ratio between 0 and 0.5");
  }
  return {
    chunkTokens,
    overlapTokens: Math.floor(chunkTokens * overlapRatio),
    headingPrefix: options.headingPrefix ?? true,
  };
}

/** Chooses the unit ranges [start, end) of a section's chunks. */
function planSpans(units: TextUnit[], settings: Settings): Span[] {
  // prefix[i] is the token count of units[0..i), so any range is costed in O(1): the count is
  // additive over whitespace (see token-count.ts).
  const prefixTokens = [0];
  for (const unit of units) prefixTokens.push(prefixTokens[prefixTokens.length - 1]! + unit.tokens);
  const tokensBetween = (from: number, to: number) => prefixTokens[to]! - prefixTokens[from]!;

  const spans: Span[] = [];
  let start = 0;
  let previousEnd = 0;
  while (previousEnd < units.length) {
    let prefix = headingPrefixOf(units, start, settings);
    let budget = settings.chunkTokens - (prefix ? countTokens(prefix) : 0);
    if (start < previousEnd && tokensBetween(start, previousEnd + 1) > budget) {
      // The overlap leaves no room for the next unit: start fresh after the previous chunk.
      start = previousEnd;
      prefix = headingPrefixOf(units, start, settings);
      budget = settings.chunkTokens - (prefix ? countTokens(prefix) : 0);
    }
    const end = chooseEnd(units, start, previousEnd, budget, tokensBetween);
    // Exact, not an estimate of the estimate: countTokens is additive over the "\n\n" and spaces.
    const tokens = settings.chunkTokens - budget + tokensBetween(start, end);
    spans.push({ start, end, prefix, tokens });
    previousEnd = end;
    start =
      end < units.length ? chooseOverlapStart(units, start, end, settings, tokensBetween) : end;
  }
  return spans;
}

/**
 * The heading path of a chunk's first content: a chunk that opens with "# Pricing" and
 * "## Enterprise" lines is about "Pricing > Enterprise". `end` bounds the search when known.
 */
function headingPathAt(units: TextUnit[], start: number, end = units.length): readonly string[] {
  let index = start;
  while (index + 1 < end && units[index]!.inHeading) index += 1;
  return units[index]!.headingPath;
}

function headingPrefixOf(units: TextUnit[], start: number, settings: Settings): string | null {
  const path = headingPathAt(units, start);
  if (!settings.headingPrefix || path.length === 0) return null;
  const prefix = path.join(HEADING_SEPARATOR);
  // A heading path that would eat a quarter of the chunk is left out rather than starve the body.
  return countTokens(prefix) * 4 > settings.chunkTokens ? null : prefix;
}

function chooseEnd(
  units: TextUnit[],
  start: number,
  previousEnd: number,
  budget: number,
  tokensBetween: (from: number, to: number) => number,
): number {
  let farthest = Math.max(start, previousEnd);
  while (farthest < units.length && tokensBetween(start, farthest + 1) <= budget) farthest += 1;
  // A single word longer than the whole budget becomes a chunk of its own rather than be cut.
  if (farthest <= previousEnd || farthest === start) return Math.max(start, previousEnd) + 1;
  if (farthest === units.length) return farthest;

  let best = -1;
  let bestStrength = -1;
  let lastWordGap = -1;
  for (let end = Math.max(start, previousEnd) + 1; end <= farthest; end += 1) {
    const strength = units[end]!.boundary;
    if (strength >= Boundary.word) lastWordGap = end;
    const fill = tokensBetween(start, end) / budget;
    if (fill >= MIN_FILL[strength] && strength >= bestStrength) {
      best = end;
      bestStrength = strength;
    }
  }
  if (best > 0) return best;
  return lastWordGap > 0 ? lastWordGap : farthest;
}

function chooseOverlapStart(
  units: TextUnit[],
  start: number,
  end: number,
  settings: Settings,
  tokensBetween: (from: number, to: number) => number,
): number {
  if (settings.overlapTokens === 0 || units[end]!.boundary === Boundary.heading) return end;
  // The overlap never reaches back across a heading into the previous heading section.
  let floor = start + 1;
  for (let index = end - 1; index > start; index -= 1) {
    if (units[index]!.boundary === Boundary.heading) {
      floor = index;
      break;
    }
  }
  let sentenceStart = -1;
  let wordStart = -1;
  for (let index = floor; index < end; index += 1) {
    if (tokensBetween(index, end) > settings.overlapTokens) continue;
    const strength = units[index]!.boundary;
    if (sentenceStart < 0 && strength >= Boundary.sentence) sentenceStart = index;
    if (wordStart < 0 && strength >= Boundary.word) wordStart = index;
    if (sentenceStart >= 0 && wordStart >= 0) break;
  }
  // Whole sentences are preferred as long as they give at least half the wanted overlap.
  if (sentenceStart >= 0 && tokensBetween(sentenceStart, end) * 2 >= settings.overlapTokens) {
    return sentenceStart;
  }
  if (wordStart >= 0) return wordStart;
  return sentenceStart >= 0 ? sentenceStart : end;
}
