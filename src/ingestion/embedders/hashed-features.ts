import { contentWords, normalisedWords } from "./text-features.ts";

/** How the local embedder turns a text into a vector; bench/embedder-choice.ts compares these. */
export type HashedFeatureConfig = {
  dimensions: number;
  /** Weights of the three feature groups in the final vector (0 leaves a group out). */
  unigramWeight: number;
  bigramWeight: number;
  charNgramWeight: number;
  /** Character n-gram lengths, taken inside each word padded with boundary marks: "<cam", "era>". */
  charNgramMin: number;
  charNgramMax: number;
  /** Whether the character n-grams read the stemmed, stopword-free words or all words as written. */
  charNgramsOnContentWords: boolean;
  stopwords: boolean;
  stemming: "none" | "porter";
  /** Term-frequency damping: a word said ten times should not weigh ten times as much. */
  termFrequency: "raw" | "sqrt" | "log";
  /** Varies the hash functions (default 0) so the bench can average out lucky or unlucky collisions. */
  hashSeed?: number;
};

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const GROUP_SEED = { unigram: 0x9e3779b1, bigram: 0x85ebca77, charNgram: 0xc2b2ae3d } as const;
const WORD_SEPARATOR = 0x20;
const BOUNDARY_START = 0x3c;
const BOUNDARY_END = 0x3e;

/**
 * The L2-normalised feature-hashing vector of a text: word unigrams, word bigrams and character
 * n-grams each hashed (FNV-1a with a murmur3 finaliser; a second hash picks the sign so collisions
 * cancel on average) into `dimensions` buckets, each group normalised, weighted and summed.
 * Pure integer hashing, sqrt and division: the same vector on every run and machine.
 */
export function hashedFeatureVector(
  text: string,
  config: HashedFeatureConfig,
  stemCache?: Map<string, string>,
): number[] {
  const words = normalisedWords(text);
  const kept = contentWords(words, config, stemCache);
  const seed = config.hashSeed ?? 0;
  const vector = new Float64Array(config.dimensions);
  if (config.unigramWeight > 0) {
    const counts = new Map<number, number>();
    for (const word of kept) increment(counts, fnv(GROUP_SEED.unigram ^ seed, word));
    addGroup(vector, counts, config.unigramWeight, config);
  }
  if (config.bigramWeight > 0 && kept.length > 1) {
    const counts = new Map<number, number>();
    for (let index = 1; index < kept.length; index += 1) {
      const first = fnv(GROUP_SEED.bigram ^ seed, kept[index - 1]!);
      increment(counts, fnvContinue(fnvByte(first, WORD_SEPARATOR), kept[index]!));
    }
    addGroup(vector, counts, config.bigramWeight, config);
  }
  if (config.charNgramWeight > 0) {
    const counts = new Map<number, number>();
    const source = config.charNgramsOnContentWords ? kept : words;
    for (const word of source) addCharNgrams(counts, word, GROUP_SEED.charNgram ^ seed, config);
    addGroup(vector, counts, config.charNgramWeight, config);
  }
  return normalise(vector);
}

function addCharNgrams(
  counts: Map<number, number>,
  word: string,
  seed: number,
  config: HashedFeatureConfig,
) {
  const padded = `${String.fromCharCode(BOUNDARY_START)}${word}${String.fromCharCode(BOUNDARY_END)}`;
  // Words shorter than the smallest n-gram still count once, as the whole padded word.
  if (padded.length < config.charNgramMin) {
    increment(counts, fnv(seed, padded));
    return;
  }
  for (let start = 0; start + config.charNgramMin <= padded.length; start += 1) {
    let hash = (seed ^ FNV_OFFSET) >>> 0;
    const stop = Math.min(padded.length, start + config.charNgramMax);
    for (let end = start; end < stop; end += 1) {
      hash = fnvByte(hash, padded.charCodeAt(end));
      if (end - start + 1 >= config.charNgramMin) increment(counts, hash);
    }
  }
}

function addGroup(
  vector: Float64Array,
  counts: Map<number, number>,
  weight: number,
  config: HashedFeatureConfig,
) {
  if (counts.size === 0) return;
  const group = new Float64Array(config.dimensions);
  for (const [hash, count] of counts) {
    const mixed = fmix32(hash);
    const bucket = mixed % config.dimensions;
    const sign = fmix32(mixed ^ 0x5bd1e995) & 1 ? 1 : -1;
    group[bucket]! += sign * damp(count, config.termFrequency);
  }
  let norm = 0;
  for (const value of group) norm += value * value;
  if (norm === 0) return;
  const scale = weight / Math.sqrt(norm);
  for (let index = 0; index < group.length; index += 1) vector[index]! += group[index]! * scale;
}

function damp(count: number, termFrequency: HashedFeatureConfig["termFrequency"]): number {
  if (termFrequency === "sqrt") return Math.sqrt(count);
  if (termFrequency === "log") return 1 + Math.log(count);
  return count;
}

function normalise(vector: Float64Array): number[] {
  let norm = 0;
  for (const value of vector) norm += value * value;
  // A text without a single letter or digit gets a fixed unit vector instead of an undefined cosine.
  if (norm === 0) {
    const unit = new Array<number>(vector.length).fill(0);
    unit[0] = 1;
    return unit;
  }
  const scale = 1 / Math.sqrt(norm);
  return Array.from(vector, (value) => value * scale);
}

function increment(counts: Map<number, number>, hash: number) {
  counts.set(hash, (counts.get(hash) ?? 0) + 1);
}

function fnv(seed: number, text: string): number {
  return fnvContinue((seed ^ FNV_OFFSET) >>> 0, text);
}

function fnvContinue(hash: number, text: string): number {
  let result = hash;
  for (let index = 0; index < text.length; index += 1) {
    result = fnvByte(result, text.charCodeAt(index));
  }
  return result;
}

// Hashes a UTF-16 code unit (not only a byte); the words are NFKD-folded and mostly ASCII.
function fnvByte(hash: number, code: number): number {
  return Math.imul(hash ^ code, FNV_PRIME) >>> 0;
}

/** murmur3's 32-bit finaliser: spreads FNV's weak low bits over the whole word. */
function fmix32(input: number): number {
  let hash = input >>> 0;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
