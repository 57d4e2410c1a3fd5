import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../db/client.ts";
import { type Bm25Term, bm25Idf } from "./bm25.ts";
import type { Passage } from "./passage.ts";
import type { SearchFilters } from "./search-filters.ts";
import { POSTING_BYTES, type TextPostings, TextPostingsBuilder } from "./text-postings.ts";
import { TopList } from "./top-list.ts";

/**
 * Copies of datastores' chunks in the application, ranked there instead of in SQL: vectors
 * exactly (for a PostgreSQL without pgvector, for PGlite, which keeps no HNSW index, and for
 * datastores small enough that exact scoring beats an HNSW walk), and full text by BM25 as the
 * database's statement computes it (text-postings.ts).
 *
 * Scoring `real[]` vectors in SQL walks each array element by element (about 0.1 ms per chunk of
 * 512 dimensions, so 140 ms for a 1,400-chunk datastore), and BM25 in SQL walks the tsvector
 * of every matching chunk. Here a datastore's vectors are read once into one Float32Array and its
 * tsvectors into an inverted index. The copy is labelled with the datastore's `knowledge_version`,
 * which a trigger raises with every change to its chunks, so a query that sees a newer version
 * reloads before ranking: results are never staler than the datastore row the query read. Copies
 * are kept within a byte budget, least recently used first out; what does not fit is ranked in
 * SQL (a copy may hold the full text without the vectors). Where the budget allows after both
 * rankings, a copy also holds what a passage shows (texts, datasource names), so that a query
 * ranked here reads nothing more from the database; a rename of a datasource raises the version
 * too (migration 0025).
 */
export type ChunkCopiesOptions = {
  db: Db;
  /** Budget for all copies together (vectors, postings and ids). */
  maxBytes: number;
  /**
   * Most vector components (chunks × dimensions) a copy holds: a larger datastore's copy keeps
   * only its full text, and its vectors are ranked by the database.
   */
  maxVectorValues: number;
  /**
   * Which side gets the budget first, the one the database ranks more slowly: the vectors where
   * it must score them exactly (no HNSW index), else the full text.
   */
  vectorsFirst: boolean;
};

type Loaded = {
  datastoreId: string;
  version: number;
  bytes: number;
  ids: string[];
  datasourceIds: string[];
  /** The web site a page belongs to, else null: a filter on the site's id covers its pages. */
  groupIds: Array<string | null>;
  customIds: Array<string | null>;
  /**
   * By component: component d of row r at `d * ids.length + r`. Null when the vectors are left
   * to the database (too many, or over the budget).
   */
  vectors: Float32Array | null;
  /** Null when the postings did not fit the budget next to the vectors. */
  text: TextPostings | null;
  /** What the passages of these chunks show; null when it did not fit next to the rankings. */
  shown: ShownChunks | null;
};

/** By row, what a passage shows of a chunk and its datasource. */
type ShownChunks = {
  rowOf: Map<string, number>;
  texts: string[];
  datasourceNames: string[];
  pages: Array<number | null>;
  sections: Array<string | null>;
  sources: string[];
};

type TooLarge = { version: number; tooLarge: true };

const LOAD_PAGE_ROWS = 5_000;
/** Rough per-chunk cost of ids and bookkeeping next to the vector and postings. */
const ROW_OVERHEAD_BYTES = 200;
/** Per-chunk cost of the id-to-row map entry and the arrays of what passages show. */
const SHOWN_ROW_OVERHEAD_BYTES = 120;

export function createChunkCopies({ db, ...limits }: ChunkCopiesOptions) {
  // Map order is recency order: a hit moves its entry to the end, eviction takes the first.
  const copies = new Map<string, Loaded | TooLarge>();
  const loads = new Map<string, Promise<Loaded | TooLarge>>();
  let heldBytes = 0;

  function remember(key: string, copy: Loaded | TooLarge) {
    forget(key);
    copies.set(key, copy);
    if ("tooLarge" in copy) return;
    heldBytes += copy.bytes;
    for (const oldKey of copies.keys()) {
      if (heldBytes <= limits.maxBytes) break;
      if (oldKey !== key) forget(oldKey);
    }
  }

  function forget(key: string) {
    const old = copies.get(key);
    if (old && !("tooLarge" in old)) heldBytes -= old.bytes;
    copies.delete(key);
  }

  async function copyOf(datastoreId: string, version: number, dimensions: number) {
    const key = `${datastoreId}#${dimensions}`;
    for (let attempt = 1; ; attempt += 1) {
      const held = copies.get(key);
      if (held && held.version >= version) {
        copies.delete(key);
        copies.set(key, held);
        return held;
      }
      // One load per datastore at a time. A load that started before this query read its version
      // may return an older copy: a second one starts after, so its snapshot is at least as new
      // (unless the datastore was just deleted, when any copy will do).
      let pending = loads.get(key);
      if (!pending) {
        pending = load(db, datastoreId, dimensions, limits).finally(() => loads.delete(key));
        loads.set(key, pending);
      }
      const copy = await pending;
      if (copies.get(key) !== copy) remember(key, copy);
      if (copy.version >= version || attempt === 2) return copy;
    }
  }

  return {
    /**
     * The copies of these datastores' chunks of `dimensions`-sized vectors, at least as new as
     * the versions given; null when one has neither its vectors nor its full text copied and
     * the caller must rank in SQL.
     */
    async of(
      datastores: ReadonlyArray<{ id: string; knowledgeVersion: number }>,
      dimensions: number,
    ): Promise<CopiedChunks | null> {
      const loaded: Loaded[] = [];
      for (const store of datastores) {
        const copy = await copyOf(store.id, store.knowledgeVersion, dimensions);
        if ("tooLarge" in copy) return null;
        loaded.push(copy);
      }
      return new CopiedChunks(loaded);
    },

    /** Bytes held by the loaded copies (for tests and diagnostics). */
    heldBytes: () => heldBytes,
  };
}

export type ChunkCopies = ReturnType<typeof createChunkCopies>;

/** Rankings over the copies of one or more datastores sharing a vector space. */
export class CopiedChunks {
  constructor(private readonly copies: readonly Loaded[]) {}

  /**
   * Ids of the `limit` chunks closest to the query by cosine, best first (ties by id), after the
   * filters; null when a copy holds no vectors. `queryVector` may have any scale (stored vectors
   * are unit length).
   */
  nearest(queryVector: readonly number[], filters: SearchFilters | undefined, limit: number) {
    if (this.copies.some((copy) => copy.vectors === null)) return null;
    const query = sparseLanes(queryVector);
    const best = new TopList(limit);
    for (const copy of this.copies) {
      const accepts = rowFilter(copy, filters);
      const scores = dotProducts(copy.vectors!, copy.ids.length, query);
      for (let row = 0; row < copy.ids.length; row += 1) {
        if (accepts && !accepts(row)) continue;
        best.offer(scores[row]!, copy.ids[row]!);
      }
    }
    return best.ids();
  }

  /**
   * Ids of the `limit` chunks that contain any of the lexemes, best first by BM25 (bm25.ts) with
   * the statistics of all the copies together (ties by id), after the filters: the ranking the
   * database's statement makes. Null when a copy holds no postings.
   */
  rankText(lexemes: readonly string[], filters: SearchFilters | undefined, limit: number) {
    if (this.copies.some((copy) => copy.text === null)) {
      return null;
    }
    const texts = this.copies.map((copy) => copy.text!);
    const chunks = texts.reduce((sum, text) => sum + text.rowCount, 0);
    const averageLength = texts.reduce((sum, text) => sum + text.totalLength, 0) / chunks;
    const terms: Bm25Term[] = [];
    for (const lexeme of [...new Set(lexemes)].sort()) {
      const frequency = texts.reduce((sum, text) => sum + text.documentFrequency(lexeme), 0);
      if (frequency > 0) terms.push({ lexeme, idf: bm25Idf(chunks, frequency) });
    }
    const best = new TopList(limit);
    for (const copy of this.copies) {
      copy.text!.rank(terms, averageLength, rowFilter(copy, filters), (row, relevance) =>
        best.offer(relevance, copy.ids[row]!),
      );
    }
    return best.ids();
  }

  /**
   * The passages of these chunks, in the order given, as the copies show them; null when a copy
   * does not hold what passages show, and the caller must read them from the database. A chunk
   * no copy holds is left out.
   */
  passages(chunks: readonly ScoredId[]): Passage[] | null {
    if (this.copies.some((copy) => copy.shown === null)) return null;
    return chunks.flatMap(({ id, score }) => {
      for (const copy of this.copies) {
        const shown = copy.shown!;
        const row = shown.rowOf.get(id);
        if (row === undefined) continue;
        return [
          {
            chunkId: id,
            text: shown.texts[row]!,
            score,
            datasourceId: copy.datasourceIds[row]!,
            datasourceName: shown.datasourceNames[row]!,
            datastoreId: copy.datastoreId,
            customId: copy.customIds[row]!,
            page: shown.pages[row]!,
            section: shown.sections[row]!,
            source: shown.sources[row]!,
          },
        ];
      }
      return [];
    });
  }
}

/** A chunk the fusion kept, with its fused score already scaled to 0..1. */
export type ScoredId = { id: string; score: number };

function rowFilter(copy: Loaded, filters: SearchFilters | undefined) {
  const datasources = nonEmptySet(filters?.datasourceIds);
  const customIds = nonEmptySet(filters?.customIds);
  if (!datasources && !customIds) return null;
  return (row: number) => {
    if (datasources) {
      const groupId = copy.groupIds[row];
      const inFilter =
        datasources.has(copy.datasourceIds[row]!) || (groupId != null && datasources.has(groupId));
      if (!inFilter) return false;
    }
    if (customIds) {
      const customId = copy.customIds[row];
      if (customId == null || !customIds.has(customId)) return false;
    }
    return true;
  };
}

function nonEmptySet(values: string[] | undefined): Set<string> | null {
  return values && values.length > 0 ? new Set(values) : null;
}

/**
 * A query vector's non-zero components, split into the four running sums of dotProducts: lane k
 * takes components 4i + k, and lane 0 also the components past the last multiple of four. The
 * local embedder's vectors are sparse (a question sets about 25 of 512), and a zero component
 * adds exactly nothing, so skipping them leaves every sum bit for bit what the full loop gives.
 */
type SparseLanes = {
  indices: Int32Array;
  values: Float64Array;
  ends: [number, number, number, number];
};

function sparseLanes(vector: readonly number[]): SparseLanes {
  const size = vector.length;
  const whole = size - (size % 4);
  const indices: number[] = [];
  const ends: number[] = [];
  for (let lane = 0; lane < 4; lane += 1) {
    const take = (index: number) => {
      if (Math.fround(vector[index]!) !== 0) indices.push(index);
    };
    for (let index = lane; index < whole; index += 4) take(index);
    if (lane === 0) for (let index = whole; index < size; index += 1) take(index);
    ends.push(indices.length);
  }
  return {
    indices: Int32Array.from(indices),
    // The stored vectors are float4, and so is the query they are multiplied with.
    values: Float64Array.from(indices, (index) => Math.fround(vector[index]!)),
    ends: ends as SparseLanes["ends"],
  };
}

/**
 * `query` · every row of the copy, summed in four lanes (see SparseLanes). The copy is stored by
 * component, so each non-zero component of the query reads one contiguous column instead of one
 * scattered value per row: the work and the memory read scale with the query's non-zero
 * components, not with the vectors' size.
 */
function dotProducts(vectors: Float32Array, rows: number, query: SparseLanes): Float64Array {
  const totals = new Float64Array(rows);
  const lane = new Float64Array(rows);
  for (let index = 0, at = 0; index < 4; index += 1) {
    if (index > 0) lane.fill(0);
    const sums = index === 0 ? totals : lane;
    for (; at < query.ends[index]!; at += 1) {
      const column = query.indices[at]! * rows;
      const value = query.values[at]!;
      for (let row = 0; row < rows; row += 1) sums[row]! += vectors[column + row]! * value;
    }
    if (index > 0) for (let row = 0; row < rows; row += 1) totals[row]! += lane[row]!;
  }
  return totals;
}

/**
 * Reads one datastore's vectors, tsvectors and (budget allowing) what its passages show in a
 * single snapshot, labelled with the version of that snapshot. Vectors and tsvectors travel in
 * PostgreSQL's binary formats (`array_send`, `tsvectorsend`), which are several times smaller
 * and faster to decode than their text forms.
 */
async function load(
  db: Db,
  datastoreId: string,
  dimensions: number,
  limits: Omit<ChunkCopiesOptions, "db">,
): Promise<Loaded | TooLarge> {
  return db.transaction(
    async (tx) => {
      const [head] = rowsOf<{
        version: string | number;
        chunks: string | number;
        postings: string | number;
        shown: string | number;
      }>(
        await tx.execute(sql`
          select d.knowledge_version as version, count(c.id) as chunks,
                 coalesce(sum(length(c.search)), 0) as postings,
                 coalesce(sum(octet_length(c.text) + coalesce(octet_length(c.section), 0)
                              + coalesce(octet_length(c.source_url), 0)), 0) as shown
          from datastores d
          left join knowledge_chunks c on c.datastore_id = d.id and c.dimensions = ${dimensions}
          where d.id = ${datastoreId}
          group by d.knowledge_version`),
      );
      const version = Number(head?.version ?? 0);
      const count = Number(head?.chunks ?? 0);
      const rowBytes = count * ROW_OVERHEAD_BYTES;
      const vectorBytes = count * dimensions * 4;
      const postingBytes = Number(head?.postings ?? 0) * POSTING_BYTES;
      const fits = (bytes: number) => rowBytes + bytes <= limits.maxBytes;
      const vectorsAllowed = count * dimensions <= limits.maxVectorValues;
      let withVectors: boolean;
      let withText: boolean;
      if (limits.vectorsFirst) {
        withVectors = vectorsAllowed && fits(vectorBytes);
        withText = fits((withVectors ? vectorBytes : 0) + postingBytes);
      } else {
        withText = fits(postingBytes);
        withVectors = vectorsAllowed && fits((withText ? postingBytes : 0) + vectorBytes);
      }
      if (!withVectors && !withText) return { version, tooLarge: true };
      // What passages show is copied last, and only next to both rankings: without one of them
      // the query reads chunks from the database anyway.
      const estimatedShownBytes = shownBytes(count, Number(head?.shown ?? 0));
      const withShown =
        withVectors && withText && fits(vectorBytes + postingBytes + estimatedShownBytes);

      const ids: string[] = [];
      const datasourceIds: string[] = [];
      const groupIds: Array<string | null> = [];
      const customIds: Array<string | null> = [];
      const vectors = withVectors ? new Float32Array(count * dimensions) : null;
      const text = withText ? new TextPostingsBuilder() : null;
      const shown: ShownChunks | null = withShown
        ? { rowOf: new Map(), texts: [], datasourceNames: [], pages: [], sections: [], sources: [] }
        : null;
      let after = "";
      for (;;) {
        const page = rowsOf<ChunkCopyRow>(
          await tx.execute(sql`
            select c.id, c.datasource_id, s.group_id, c.custom_id,
                   ${withVectors ? sql`array_send(c.embedding)` : sql`null`} as embedding,
                   ${withText ? sql`tsvectorsend(c.search)` : sql`null`} as search,
                   ${withShown ? sql`c.text, s.name as datasource_name, c.page, c.section, coalesce(c.source_url, s.name) as source` : sql`null as text`}
            from knowledge_chunks c join datasources s on s.id = c.datasource_id
            where c.datastore_id = ${datastoreId} and c.dimensions = ${dimensions} and c.id > ${after}
            order by c.id
            limit ${LOAD_PAGE_ROWS}`),
        );
        for (const row of page) {
          if (ids.length === count) throw new Error("The datastore's chunks changed in a snapshot");
          if (vectors) decodeFloat4Array(row.embedding!, vectors, ids.length, count, dimensions);
          if (text) text.add(row.search!);
          if (shown) {
            shown.rowOf.set(row.id, ids.length);
            shown.texts.push(row.text!);
            shown.datasourceNames.push(row.datasource_name!);
            shown.pages.push(row.page ?? null);
            shown.sections.push(row.section ?? null);
            shown.sources.push(row.source!);
          }
          ids.push(row.id);
          datasourceIds.push(row.datasource_id);
          groupIds.push(row.group_id);
          customIds.push(row.custom_id);
        }
        if (page.length < LOAD_PAGE_ROWS) break;
        after = page.at(-1)!.id;
      }
      // The postings' real size (their lexemes included) is known once they are read: when both
      // sides no longer fit, the one that came first stays, and what passages show goes first.
      const textBytes = text ? text.bytes() : 0;
      let keepVectors = vectors !== null;
      let keepText = text !== null && fits(textBytes);
      if (keepVectors && keepText && !fits(vectorBytes + textBytes)) {
        if (limits.vectorsFirst) keepText = false;
        else keepVectors = false;
      }
      if (!keepVectors && !keepText) return { version, tooLarge: true };
      const rankingBytes = (keepVectors ? vectorBytes : 0) + (keepText ? textBytes : 0);
      const keepShown =
        shown !== null && keepVectors && keepText && fits(rankingBytes + estimatedShownBytes);
      return {
        datastoreId,
        version,
        bytes: rowBytes + rankingBytes + (keepShown ? estimatedShownBytes : 0),
        ids,
        datasourceIds,
        groupIds,
        customIds,
        vectors: keepVectors ? vectors : null,
        text: keepText ? text!.build() : null,
        shown: keepShown ? shown : null,
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/**
 * Memory held by what passages show: the strings (two bytes a character at most, which their
 * UTF-8 size bounds), the datasource names and sources largely shared, and a map entry per row.
 */
function shownBytes(chunks: number, utf8Bytes: number): number {
  return 2 * utf8Bytes + chunks * SHOWN_ROW_OVERHEAD_BYTES;
}

type ChunkCopyRow = {
  id: string;
  datasource_id: string;
  group_id: string | null;
  custom_id: string | null;
  embedding: Uint8Array | null;
  search: Uint8Array | null;
  text: string | null;
  datasource_name?: string;
  page?: number | null;
  section?: string | null;
  source?: string;
};

/**
 * Decodes a one-dimensional float4 array in PostgreSQL's binary format into row `row` of `target`
 * (stored by component, `rows` rows): a 12-byte header (dimension count, null flag, element
 * type), 8 bytes per dimension (length, lower bound), then each element as a 4-byte length and a
 * big-endian float.
 */
function decodeFloat4Array(
  bytes: Uint8Array,
  target: Float32Array,
  row: number,
  rows: number,
  size: number,
) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getInt32(12);
  if (view.getInt32(0) !== 1 || length !== size) {
    throw new Error(`A stored vector has ${length} components where ${size} were expected`);
  }
  for (let index = 0, at = 20; index < size; index += 1, at += 8) {
    target[index * rows + row] = view.getFloat32(at + 4);
  }
}
