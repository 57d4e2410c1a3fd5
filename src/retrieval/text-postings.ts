/**
 * Full-text ranking in the application: an inverted index over a datastore's `search` tsvectors
 * that ranks by BM25 (bm25.ts) as the database's statement does (hybrid-search.ts,
 * textRanksInSql), for the queries the hybrid search sends (an OR of lexemes).
 *
 * Ranking in SQL walks the tsvector of every matching chunk: a question sharing a word with 800
 * of 1,400 chunks costs PostgreSQL several milliseconds, the largest part of a retrieval. Here
 * each lexeme's postings are read once and summed. A lexeme's document frequency is the length
 * of its postings, a chunk's length the positions of its tsvector (a lexeme without positions
 * counting one): the figures the database keeps in knowledge_lexeme_statistics and
 * knowledge_text_totals for the same chunks.
 */
import { type Bm25Term, bm25TermScore } from "./bm25.ts";

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
  private readonly lengths: number[] = [];

  /**
   * Adds the next row's tsvector in PostgreSQL's binary format (`tsvectorsend`): a 4-byte lexeme
   * count, then per lexeme its UTF-8 bytes, a NUL, a 2-byte position count and 2-byte positions.
   */
  add(bytes: Uint8Array): void {
    const row = this.lengths.length;
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const lexemes = buffer.readInt32BE(0);
    let at = 4;
    let length = 0;
    for (let index = 0; index < lexemes; index += 1) {
      const end = buffer.indexOf(0, at);
      const lexeme = buffer.toString("utf8", at, end);
      const positions = buffer.readUInt16BE(end + 1);
      at = end + 3 + positions * 2;
      length += Math.max(positions, 1);
      let term = this.terms.get(lexeme);
      if (term === undefined) {
        term = this.terms.size;
        this.terms.set(lexeme, term);
      }
      this.push(term, row, Math.max(positions, 1));
    }
    this.lengths.push(length);
  }

  /** Bytes the built index will hold. */
  bytes(): number {
    return this.size * POSTING_BYTES + this.terms.size * TERM_BYTES + this.lengths.length * 4;
  }

  build(): TextPostings {
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
    return new TextPostings(this.terms, starts, rows, counts, Int32Array.from(this.lengths));
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
  private readonly sums: Float64Array;
  /** Σ of the rows' lengths: with the row count, the copy's share of the average length. */
  readonly totalLength: number;

  constructor(
    private readonly terms: ReadonlyMap<string, number>,
    /** Postings of term t are at starts[t] .. starts[t + 1] - 1. */
    private readonly starts: Int32Array,
    private readonly rows: Int32Array,
    /** Positions of the lexeme in the row (at least 1): BM25's term frequency. */
    private readonly counts: Uint16Array,
    /** Positions in each row's tsvector: BM25's document length. */
    private readonly lengths: Int32Array,
  ) {
    this.sums = new Float64Array(lengths.length);
    this.totalLength = lengths.reduce((sum, length) => sum + length, 0);
  }

  /** Rows indexed. */
  get rowCount(): number {
    return this.lengths.length;
  }

  /** How many rows contain the lexeme. */
  documentFrequency(lexeme: string): number {
    const term = this.terms.get(lexeme);
    return term === undefined ? 0 : this.starts[term + 1]! - this.starts[term]!;
  }

  /**
   * Calls `visit(row, relevance)` for every row (passing `accepts`) that contains at least one of
   * the terms, with its BM25 score: the terms' contributions added in the order given (the SQL
   * statement's order, by lexeme in byte order).
   */
  rank(
    terms: readonly Bm25Term[],
    averageLength: number,
    accepts: ((row: number) => boolean) | null,
    visit: (row: number, relevance: number) => void,
  ): void {
    const sums = this.sums;
    const touched: number[] = [];
    for (const { lexeme, idf } of terms) {
      const term = this.terms.get(lexeme);
      if (term === undefined) continue;
      for (let slot = this.starts[term]!; slot < this.starts[term + 1]!; slot += 1) {
        const row = this.rows[slot]!;
        if (accepts && !accepts(row)) continue;
        if (sums[row] === 0) touched.push(row);
        sums[row]! += bm25TermScore(idf, this.counts[slot]!, this.lengths[row]!, averageLength);
      }
    }
    for (const row of touched) {
      const relevance = sums[row]!;
      sums[row] = 0;
      visit(row, relevance);
    }
  }
}
