import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../db/client.ts";
import type { SearchFilters } from "./hybrid-search.ts";

/**
 * Exact vector search in the application, for a PostgreSQL without pgvector and for PGlite
 * (whose HNSW walks run in WebAssembly).
 *
 * Scoring `real[]` vectors in SQL walks each array element by element (about 0.1 ms per chunk of
 * 512 dimensions, so 140 ms for a 1,400-chunk datastore). Here a datastore's vectors are read
 * once into one Float32Array and scored with a tight loop (about 1 ms per 1,400 chunks). The
 * copy is labelled with the datastore's `knowledge_version`, which a trigger raises with every
 * change to its chunks, so a query that sees a newer version reloads before scoring: results are
 * never staler than the datastore row the query read. Copies are kept within a byte budget,
 * least recently used first out; a datastore larger than the whole budget is scored in SQL.
 */
export type ExactVectorIndexOptions = {
  db: Db;
  /** Budget for all copies together (vectors at 4 bytes per dimension plus ids). */
  maxBytes: number;
};

export type NearestRequest = {
  datastores: ReadonlyArray<{ id: string; knowledgeVersion: number }>;
  dimensions: number;
  /** Any scale; only the order of the dot products matters (stored vectors are unit length). */
  queryVector: readonly number[];
  filters?: SearchFilters;
  limit: number;
};

type Loaded = {
  version: number;
  bytes: number;
  ids: string[];
  datasourceIds: string[];
  /** The web site a page belongs to, else null: a filter on the site's id covers its pages. */
  groupIds: Array<string | null>;
  customIds: Array<string | null>;
  /** Row-major, `ids.length` rows of `dimensions` components. */
  vectors: Float32Array;
};

type TooLarge = { version: number; tooLarge: true };

const LOAD_PAGE_ROWS = 5_000;
/** Rough per-chunk cost of ids and bookkeeping next to the vector itself. */
const ROW_OVERHEAD_BYTES = 200;

export function createExactVectorIndex({ db, maxBytes }: ExactVectorIndexOptions) {
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
      if (heldBytes <= maxBytes) break;
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
        pending = load(db, datastoreId, dimensions, maxBytes).finally(() => loads.delete(key));
        loads.set(key, pending);
      }
      const copy = await pending;
      if (copies.get(key) !== copy) remember(key, copy);
      if (copy.version >= version || attempt === 2) return copy;
    }
  }

  return {
    /**
     * Ids of the chunks closest to the query by cosine, best first (ties by id), after the
     * filters; null when a datastore does not fit the budget and the caller must score in SQL.
     */
    async nearest(request: NearestRequest): Promise<string[] | null> {
      const scored: Loaded[] = [];
      for (const store of request.datastores) {
        const copy = await copyOf(store.id, store.knowledgeVersion, request.dimensions);
        if ("tooLarge" in copy) return null;
        scored.push(copy);
      }
      const query = Float32Array.from(request.queryVector);
      const best = new TopList(request.limit);
      const datasourceFilter = nonEmptySet(request.filters?.datasourceIds);
      const customIdFilter = nonEmptySet(request.filters?.customIds);
      for (const copy of scored) {
        const { vectors } = copy;
        const dimensions = query.length;
        for (let row = 0; row < copy.ids.length; row += 1) {
          if (datasourceFilter) {
            const groupId = copy.groupIds[row];
            const inFilter =
              datasourceFilter.has(copy.datasourceIds[row]!) ||
              (groupId != null && datasourceFilter.has(groupId));
            if (!inFilter) continue;
          }
          if (customIdFilter) {
            const customId = copy.customIds[row];
            if (customId == null || !customIdFilter.has(customId)) continue;
          }
          best.offer(dotProduct(vectors, row * dimensions, query), copy.ids[row]!);
        }
      }
      return best.ids();
    },

    /** Bytes held by the loaded copies (for tests and diagnostics). */
    heldBytes: () => heldBytes,
  };
}

export type ExactVectorIndex = ReturnType<typeof createExactVectorIndex>;

/** `query` · the row of `vectors` at `offset`; four running sums keep the CPU's pipeline full. */
function dotProduct(vectors: Float32Array, offset: number, query: Float32Array): number {
  const size = query.length;
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let index = 0;
  for (; index + 3 < size; index += 4) {
    a += vectors[offset + index]! * query[index]!;
    b += vectors[offset + index + 1]! * query[index + 1]!;
    c += vectors[offset + index + 2]! * query[index + 2]!;
    d += vectors[offset + index + 3]! * query[index + 3]!;
  }
  for (; index < size; index += 1) a += vectors[offset + index]! * query[index]!;
  return a + b + c + d;
}

function nonEmptySet(values: string[] | undefined): Set<string> | null {
  return values && values.length > 0 ? new Set(values) : null;
}

/**
 * Reads one datastore's vectors in a single snapshot, labelled with the version of that
 * snapshot. Vectors travel in PostgreSQL's binary array format (`array_send`), which is several
 * times smaller and faster to decode than the text form of a float array.
 */
async function load(
  db: Db,
  datastoreId: string,
  dimensions: number,
  maxBytes: number,
): Promise<Loaded | TooLarge> {
  return db.transaction(
    async (tx) => {
      const [head] = rowsOf<{ version: string | number; chunks: string | number }>(
        await tx.execute(sql`
          select d.knowledge_version as version,
                 (select count(*) from knowledge_chunks c
                  where c.datastore_id = d.id and c.dimensions = ${dimensions}) as chunks
          from datastores d where d.id = ${datastoreId}`),
      );
      const version = Number(head?.version ?? 0);
      const count = Number(head?.chunks ?? 0);
      const bytes = count * (dimensions * 4 + ROW_OVERHEAD_BYTES);
      if (bytes > maxBytes) return { version, tooLarge: true };

      const copy: Loaded = {
        version,
        bytes,
        ids: [],
        datasourceIds: [],
        groupIds: [],
        customIds: [],
        vectors: new Float32Array(count * dimensions),
      };
      let after = "";
      for (;;) {
        const page = rowsOf<ChunkVectorRow>(
          await tx.execute(sql`
            select c.id, c.datasource_id, s.group_id, c.custom_id, array_send(c.embedding) as embedding
            from knowledge_chunks c join datasources s on s.id = c.datasource_id
            where c.datastore_id = ${datastoreId} and c.dimensions = ${dimensions} and c.id > ${after}
            order by c.id
            limit ${LOAD_PAGE_ROWS}`),
        );
        for (const row of page) {
          decodeFloat4Array(row.embedding, copy.vectors, copy.ids.length * dimensions, dimensions);
          copy.ids.push(row.id);
          copy.datasourceIds.push(row.datasource_id);
          copy.groupIds.push(row.group_id);
          copy.customIds.push(row.custom_id);
        }
        if (page.length < LOAD_PAGE_ROWS) break;
        after = page.at(-1)!.id;
      }
      return copy;
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

type ChunkVectorRow = {
  id: string;
  datasource_id: string;
  group_id: string | null;
  custom_id: string | null;
  embedding: Uint8Array;
};

/**
 * Decodes a one-dimensional float4 array in PostgreSQL's binary format into `target` at
 * `offset`: a 12-byte header (dimension count, null flag, element type), 8 bytes per dimension
 * (length, lower bound), then each element as a 4-byte length and a big-endian float.
 */
function decodeFloat4Array(bytes: Uint8Array, target: Float32Array, offset: number, size: number) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getInt32(12);
  if (view.getInt32(0) !== 1 || length !== size) {
    throw new Error(`A stored vector has ${length} components where ${size} were expected`);
  }
  for (let index = 0, at = 20; index < size; index += 1, at += 8) {
    target[offset + index] = view.getFloat32(at + 4);
  }
}

/** The `limit` best (score, id) pairs seen, kept sorted: best score first, ties by id. */
class TopList {
  private readonly scores: number[] = [];
  private readonly keys: string[] = [];
  constructor(private readonly limit: number) {}

  offer(score: number, id: string) {
    const size = this.scores.length;
    if (size === this.limit && !this.before(score, id, size - 1)) return;
    let at = size === this.limit ? size - 1 : size;
    while (at > 0 && this.before(score, id, at - 1)) {
      this.scores[at] = this.scores[at - 1]!;
      this.keys[at] = this.keys[at - 1]!;
      at -= 1;
    }
    this.scores[at] = score;
    this.keys[at] = id;
  }

  ids(): string[] {
    return [...this.keys];
  }

  private before(score: number, id: string, index: number): boolean {
    const other = this.scores[index]!;
    return score > other || (score === other && id < this.keys[index]!);
  }
}
