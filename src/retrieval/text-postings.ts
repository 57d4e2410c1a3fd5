/**
 * Full-text ranking in the application: an inverted index over a datastore's `search` tsvectors
 * that ranks exactly as PostgreSQL's `ts_rank(search, query, 1)` does for the queries the hybrid
 * search sends (an OR of plain lexemes), to the last bit of its float4 result.
 *
 * Ranking in SQL decompresses and walks the tsvector of every matching chunk: a question sharing
 * a word with 800 of 1,400 chunks costs PostgreSQL several milliseconds, the largest part of a
 * retrieval. Here each lexeme's postings are read once and summed.
 *
 * What is replicated is PostgreSQL's `calc_rank_or` (src/backend/utils/adt/tsrank.c), in single
 * precision like the C code: for each distinct query lexeme the chunk contains, with n positions
 * of weight w (D, 0.1, for every position `to_tsvector` makes),
 *   resj = Σ_{j=1..n} w / j²   and   res += (w + resj - w) / 1.64493406685
 * then res / (number of distinct query lexemes), divided by log2(1 + positions in the chunk)
 * (normalization 1). Lexemes are summed in PostgreSQL's order (bytewise), because float sums
 * depend on their order. test/retrieval/text-postings.test.ts checks the values against the
 * database's own.
 */

/** PostgreSQL's default weight of position class D (`0.1f`), the only class `to_tsvector` makes. */
const WEIGHT_D = Math.fround(0.1);
/** A lexeme keeps at most 256 positions in a tsvector (MAXNUMPOS). */
const MAX_POSITIONS = 256;
/** Σ 1/j², j = 1..∞ (π²/6), as written in tsrank.c. */
const ZETA_2 = 1.64493406685;

/** What one lexeme with `positions` positions of weight D adds to a chunk's sum (before / size). */
const CONTRIBUTIONS = (() => {
  const table = new Float64Array(MAX_POSITIONS + 1);
  let resj = 0;
  for (let count = 1; count <= MAX_POSITIONS; count += 1) {
    resj = Math.fround(resj + Math.fround(WEIGHT_D / (count * count)));
    table[count] = Math.fround(Math.fround(WEIGHT_D + resj) - WEIGHT_D) / ZETA_2;
  }
  // A lexeme stored without positions counts as one position of weight D.
  table[0] = table[1]!;
  return table;
})();

/**
 * Whether the database would read this lexeme back as the same single operand in a `simple`
 * tsquery. Other lexemes (hyphenated words, e-mail addresses, decimals, non-ASCII words) may
 * become phrases or change there, so queries containing one are ranked by the database.
 */
export function isPlainLexeme(lexeme: string): boolean {
  return /^[a-z0-9]+$/.test(lexeme);
}

/** Bytes a posting takes (row and position count), for cache budgets. */
export const POSTING_BYTES = 6;
/** Rough cost of one distinct lexeme: the map entry, its string and its offsets. */
const TERM_BYTES = 64;

/** Collects rows' tsvectors in row order, then builds the index. */
export class TextPostingsBuilder {
  private readonly terms = new Map<string, number>();
  private postingTerm = new Int32Array(1024);
  private postingRow = new Int32Array(1024);
  private postingCount = new Uint16Array(1024);
  private size = 0;
  private readonly norms: number[] = [];
  /** False once a tsvector had positions of another weight than D (then nothing is built). */
  private rankable = true;

  /**
   * Adds the next row's tsvector in PostgreSQL's binary format (`tsvectorsend`): a 4-byte lexeme
   * count, then per lexeme its UTF-8 bytes, a NUL, a 2-byte position count and 2-byte positions
   * whose top two bits are the weight (0 = D).
   */
  add(bytes: Uint8Array): void {
    const row = this.norms.length;
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const lexemes = buffer.readInt32BE(0);
    let at = 4;
    let length = 0;
    for (let index = 0; index < lexemes; index += 1) {
      const end = buffer.indexOf(0, at);
      const lexeme = buffer.toString("utf8", at, end);
      const positions = buffer.readUInt16BE(end + 1);
      at = end + 3;
      for (let position = 0; position < positions; position += 1, at += 2) {
        if (buffer.readUInt16BE(at) >> 14 !== 0) this.rankable = false;
      }
      length += Math.max(positions, 1);
      let term = this.terms.get(lexeme);
      if (term === undefined) {
        term = this.terms.size;
        this.terms.set(lexeme, term);
      }
      this.push(term, row, positions);
    }
    this.norms.push(Math.log(length + 1) / Math.log(2));
  }

  /** Bytes the built index will hold. */
  bytes(): number {
    return this.size * POSTING_BYTES + this.terms.size * TERM_BYTES + this.norms.length * 8;
  }

  /** The index, or null when a tsvector carried weights `ts_rank` would treat differently. */
  build(): TextPostings | null {
    if (!this.rankable) return null;
    const termCount = this.terms.size;
    const starts = new Int32Array(termCount + 1);
    for (let index = 0; index < this.size; index += 1) starts[this.postingTerm[index]! + 1]! += 1;
    for (let term = 0; term < termCount; term += 1) starts[term + 1]! += starts[term]!;
    // A counting sort by lexeme: rows stay ascending within each lexeme.
    const next = starts.slice(0, termCount);
    const rows = new Int32Array(this.size);
    const counts = new Uint16Array(this.size);
    for (let index = 0; index < this.size; index += 1) {
      const slot = next[this.postingTerm[index]!]!++;
      rows[slot] = this.postingRow[index]!;
      counts[slot] = this.postingCount[index]!;
    }
    return new TextPostings(this.terms, starts, rows, counts, Float64Array.from(this.norms));
  }

  private push(term: number, row: number, positions: number) {
    if (this.size === this.postingTerm.length) {
      const grow = <T extends Int32Array | Uint16Array>(old: T, fresh: T) => {
        fresh.set(old);
        return fresh;
      };
      this.postingTerm = grow(this.postingTerm, new Int32Array(this.size * 2));
      this.postingRow = grow(this.postingRow, new Int32Array(this.size * 2));
      this.postingCount = grow(this.postingCount, new Uint16Array(this.size * 2));
    }
    this.postingTerm[this.size] = term;
    this.postingRow[this.size] = row;
    this.postingCount[this.size] = positions;
    this.size += 1;
  }
}

export class TextPostings {
  /** Per-row running sums while a query is ranked; zero between queries. */
  private readonly sums: Float32Array;

  constructor(
    private readonly terms: ReadonlyMap<string, number>,
    /** Postings of term t are at starts[t] .. starts[t + 1] - 1. */
    private readonly starts: Int32Array,
    private readonly rows: Int32Array,
    private readonly counts: Uint16Array,
    /** log2(1 + positions) per row: normalization 1's divisor. */
    private readonly norms: Float64Array,
  ) {
    this.sums = new Float32Array(norms.length);
  }

  /**
   * Calls `visit(row, relevance)` for every row (passing `accepts`) that contains at least one of
   * the lexemes, with the value `ts_rank(search, query, 1)` gives for the OR of the lexemes. All
   * lexemes must be plain (isPlainLexeme), so that bytewise order is string order.
   */
  rank(
    lexemes: readonly string[],
    accepts: ((row: number) => boolean) | null,
    visit: (row: number, relevance: number) => void,
  ): void {
    const distinct = [...new Set(lexemes)].sort();
    const sums = this.sums;
    const touched: number[] = [];
    for (const lexeme of distinct) {
      const term = this.terms.get(lexeme);
      if (term === undefined) continue;
      for (let slot = this.starts[term]!; slot < this.starts[term + 1]!; slot += 1) {
        const row = this.rows[slot]!;
        if (accepts && !accepts(row)) continue;
        if (sums[row] === 0) touched.push(row);
        // The Float32Array rounds each sum to single precision, as the C code's float does.
        sums[row]! += CONTRIBUTIONS[this.counts[slot]!]!;
      }
    }
    for (const row of touched) {
      const relevance = Math.fround(Math.fround(sums[row]! / distinct.length) / this.norms[row]!);
      sums[row] = 0;
      visit(row, relevance);
    }
  }
}
