import { type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../db/client.ts";
import { PLAN_PER_VALUE } from "../db/prepared-statements.ts";
import { BM25_B, BM25_K1 } from "./bm25.ts";
import { createChunkCopies, type ScoredId } from "./chunk-copies.ts";
import type { Passage } from "./passage.ts";
import type { SearchFilters } from "./search-filters.ts";
import {
  anyLexemeQuery,
  chosenLexemes,
  createCommonLexemes,
  hasSearchableWords,
  questionLexemes,
} from "./text-query.ts";
import { TopList } from "./top-list.ts";
import { EMBEDDING_SCALE, encodeEmbedding } from "./vector-encoding.ts";
import { indexedVector, isIndexable } from "./vector-index.ts";

/** How chunks are ranked: both rankings fused, or one of them alone. */
export const RETRIEVAL_MODES = ["hybrid", "vector", "text"] as const;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

export type ChunkSearch = {
  /**
   * Datastores whose chunks share one vector space (same embedder and dimensions), with the
   * `knowledge_version` the caller read: a copy of their chunks older than that is reloaded
   * before ranking (chunk-copies.ts).
   */
  datastores: ReadonlyArray<{ id: string; knowledgeVersion: number }>;
  dimensions: number;
  /** The query embedded by the datastores' embedder (unit length). */
  queryVector: number[];
  queryText: string;
  /** The question's lexemes (questionLexemesSql), when the caller read them already. */
  queryLexemes?: string[];
  topK: number;
  filters?: SearchFilters;
  mode?: RetrievalMode;
};

/**
 * Reciprocal rank fusion (Cormack et al., 2009): a chunk at rank r of a list earns
 * weight / (k + r), with the list's own constant k. The score sums what it earns in each list used
 * and divides by the best possible sum (rank 1 everywhere), so 1 means "first for every
 * retriever". Scores rank chunks of one query; they are not probabilities and are not comparable
 * across queries. The smaller constant of the full-text list lets its first ranks count more
 * than the vector list's: chosen on the project's own question set
 * (docs/decisions/bm25-ranking.md).
 */
const FUSION = [
  { k: 60, weight: 1 },
  { k: 20, weight: 1 },
] as const;
const [VECTOR_LIST, TEXT_LIST] = FUSION;

const MIN_CANDIDATES = 50;
const MAX_CANDIDATES = 400;

export type HybridSearchOptions = {
  db: Db;
  /** Whether pgvector's types and distances exist (an exact scan in SQL uses them). */
  hasPgvector: boolean;
  /**
   * Whether the database keeps HNSW indexes (vector-index.ts): the vector side of a statement
   * then walks one, where its dimension count has one.
   */
  hnswIndexes: boolean;
  /**
   * Budget for ranking vectors and full text in the application from cached copies of the
   * chunks (chunk-copies.ts); 0 turns it off. What does not fit is ranked by the database: HNSW
   * with pgvector, else exactly in SQL.
   */
  exactCacheBytes: number;
  /**
   * Most vector components (chunks × dimensions) of a datastore whose vectors are scored in the
   * application; above it its vector side is left to the database's HNSW index (its full text
   * is still ranked from the copy). Infinity where HNSW walks cost more than exact scoring.
   */
  exactVectorMaxValues: number;
  /** Whether the copies' budget goes to vectors first (no fast HNSW index), else to full text. */
  vectorsFirst: boolean;
};

/**
 * Hybrid retrieval: one SQL statement fusing vector and full-text rankings by reciprocal rank,
 * either ranking made by the database or, from a copy of the chunks, in the application.
 */
export function createHybridSearch({
  db,
  hasPgvector,
  hnswIndexes,
  exactCacheBytes,
  exactVectorMaxValues,
  vectorsFirst,
}: HybridSearchOptions) {
  const commonLexemes = createCommonLexemes(db);
  const copies =
    exactCacheBytes > 0
      ? createChunkCopies({
          db,
          maxBytes: exactCacheBytes,
          maxVectorValues: exactVectorMaxValues,
          vectorsFirst,
        })
      : null;
  return async function searchChunks(request: ChunkSearch): Promise<Passage[]> {
    const mode = request.mode ?? "hybrid";
    if (request.datastores.length === 0 || request.topK < 1) return [];
    const dimensions = request.dimensions;
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new Error("The datastore has no valid vector size");
    }
    const candidates = Math.min(Math.max(request.topK * 4, MIN_CANDIDATES), MAX_CANDIDATES);
    const filter = chunkFilter(request, dimensions);
    const useVector = mode !== "text";
    // The question's lexemes (a round trip, unless the caller read them) and the datastores'
    // copies (maybe a load) at once.
    const [lexemes, copied] = await Promise.all([
      mode !== "vector" && hasSearchableWords(request.queryText)
        ? Promise.all([
            request.queryLexemes ?? questionLexemes(db, request.queryText),
            commonLexemes(),
          ]).then(([all, common]) => chosenLexemes(all, common))
        : null,
      copies ? copies.of(request.datastores, dimensions) : null,
    ]);
    const useText = lexemes !== null;
    if (!useVector && !useText) return [];
    const maxScore =
      (useVector ? VECTOR_LIST.weight / (VECTOR_LIST.k + 1) : 0) +
      (useText ? TEXT_LIST.weight / (TEXT_LIST.k + 1) : 0);
    const encoded = useVector ? encodeEmbedding(request.queryVector) : [];
    // Rankings made in the application are fused here, or enter the statement as ranked ids.
    const vectorIds =
      useVector && copied ? copied.nearest(encoded, request.filters, candidates) : null;
    const textIds =
      useText && copied ? copied.rankText(lexemes, request.filters, candidates) : null;
    if ((!useVector || vectorIds) && (!useText || textIds)) {
      // Both rankings are in hand: fuse them here, and show the chunks returned from the copies
      // or, where they do not hold them, read only those chunks.
      const fused = fuseRankings([vectorIds ?? [], textIds ?? []], request.topK).map(
        ({ id, rrf }) => ({ id, score: passageScore(rrf / maxScore) }),
      );
      return copied?.passages(fused) ?? readChunks(db, fused);
    }
    const vectorHits = !useVector
      ? noHits
      : vectorIds
        ? rankedIds(vectorIds)
        : vectorRanksInSql({ encoded, dimensions, filter, candidates, hasPgvector, hnswIndexes });
    const textHits = !useText
      ? noHits
      : textIds
        ? rankedIds(textIds)
        : textRanksInSql({ lexemes, request, filter, candidates });

    // Fused and cut to topK before the chunks are read, so only the chunks returned are.
    const statement = sql`
      with fused as (${fusedRanks(vectorHits, textHits, request.topK)})
      select ${PASSAGE_COLUMNS}, f.rrf / ${maxScore} as score
      from fused f
      join knowledge_chunks c on c.id = f.id
      join datasources d on d.id = c.datasource_id
      order by f.rrf desc, c.id collate "C"`;

    return rowsOf<PassageRow>(await db.execute(statement)).map(toPassage);
  };
}

export type HybridSearch = ReturnType<typeof createHybridSearch>;

const noHits = sql`select null::text as id, 0::bigint as rank where false`;

/** What a passage shows of chunk `c` and its datasource `d` (PassageRow without the score). */
const PASSAGE_COLUMNS = sql`c.id as chunk_id, c.text, c.datasource_id, d.name as datasource_name,
  c.datastore_id, c.custom_id, c.page, c.section, coalesce(c.source_url, d.name) as source`;

/**
 * The nearest chunks by cosine distance, ranked by the database, as (id, rank) rows. Where an
 * HNSW index holds the dimension count, its walk picks the candidates in half precision and
 * they are ranked at full precision; elsewhere every chunk of the filter is scored exactly.
 */
export function vectorRanksInSql(options: {
  encoded: number[];
  dimensions: number;
  filter: SQL;
  candidates: number;
  hasPgvector: boolean;
  hnswIndexes: boolean;
}): SQL {
  const { encoded, dimensions, filter, candidates } = options;
  const size = sql.raw(String(dimensions));
  const query = sql`${`[${encoded.join(",")}]`}::vector(${size})`;
  const nearest =
    options.hnswIndexes && isIndexable(dimensions)
      ? sql`select w.id, w.embedding::vector(${size}) <=> ${query} as distance
            from (select c.id, c.embedding from knowledge_chunks c where ${filter}
                  order by ${indexedVector(sql`c.embedding`, dimensions)} <=> ${indexedVector(query, dimensions)}
                  limit ${candidates}) w`
      : options.hasPgvector
        ? sql`select c.id, c.embedding::vector(${size}) <=> ${query} as distance
              from knowledge_chunks c where ${filter}
              order by distance limit ${candidates}`
        : sql`select c.id, 1 - (select sum(a::float8 * b) from unnest(c.embedding, ${`{${encoded.join(",")}}`}::real[]) as t(a, b)) / ${EMBEDDING_SCALE ** 2} as distance
              from knowledge_chunks c where ${filter}
              order by distance limit ${candidates}`;
  return sql`select id, row_number() over (order by distance, id) as rank from (${nearest}) v`;
}

/**
 * The chunks matching any of the lexemes, ranked by BM25 (bm25.ts) in the database, as (id, rank)
 * rows. The GIN index finds the chunks; the datastores' kept statistics give N, avgdl and each
 * lexeme's df. A chunk's term frequencies and length are read with `ts_rank`, whose C code walks
 * the tsvector without building rows (unnesting the tsvector instead cost four times as much,
 * docs/decisions/bm25-ranking.md), which holds because `to_tsvector` gives every position
 * weight D:
 * - tf of a lexeme: `ts_rank(search, lexeme, 0)` is a fixed single-precision function of the
 *   lexeme's position count (tsRankValues), so the count is its index in that table;
 * - length: `ts_rank(search, query, 0)` divided by `ts_rank(search, query, 2)` (normalisation 2
 *   divides by the positions) is the positions within single precision, rounded.
 * The terms are added in the application's order (by lexeme, bytewise). Planned for each query:
 * how many chunks it matches decides whether the GIN index pays.
 */
function textRanksInSql(options: {
  lexemes: readonly string[];
  request: ChunkSearch;
  filter: SQL;
  candidates: number;
}): SQL {
  const { lexemes, request, filter, candidates } = options;
  const distinct = [...new Set(lexemes)].sort();
  const tsquery = anyLexemeQuery(distinct);
  const storeIds = request.datastores.map((store) => store.id);
  const dimensions = request.dimensions;
  const [k1, b] = [BM25_K1, BM25_B];
  // Each lexeme's idf and its tf per chunk as columns of their own, so that the score is one
  // expression: no subquery per chunk.
  const queried = sql.join(
    distinct.map((lexeme, index) => sql`(${index}, ${lexeme})`),
    sql`, `,
  );
  const idfs = sql.join(
    distinct.map(
      (_, index) =>
        sql`max(ln(1 + (totals.chunks - s.chunks + 0.5) / (s.chunks + 0.5))) filter (where q.position = ${index}) as ${sql.raw(`idf${index}`)}`,
    ),
    sql`, `,
  );
  const frequencies = sql.join(
    distinct.map(
      (lexeme, index) =>
        sql`array_position(${tsRankValues}::real[], ts_rank(c.search, ${anyLexemeQuery([lexeme])}::tsquery, 0)) as ${sql.raw(`tf${index}`)}`,
    ),
    sql`, `,
  );
  // Added in the application's order; a lexeme the chunk lacks adds an exact zero.
  const score = sql.join(
    distinct.map((_, index) => {
      const [idf, tf] = [sql.raw(`terms.idf${index}`), sql.raw(`m.tf${index}`)];
      return sql`coalesce(${idf} * ${tf} * ${k1 + 1}::float8 / (${tf} + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * m.positions / terms.average_length)), 0)`;
    }),
    sql` + `,
  );
  return sql`select id, row_number() over (order by relevance desc, id) as rank from (${sql.raw(PLAN_PER_VALUE)}
    with totals as (
      select sum(t.chunks)::float8 as chunks, sum(t.positions)::float8 / sum(t.chunks) as average_length
      from knowledge_text_totals t
      where t.datastore_id in ${storeIds} and t.dimensions = ${dimensions}),
    terms as (
      select ${idfs}, max(totals.average_length) as average_length
      from (values ${queried}) q(position, lexeme)
      join (select l.lexeme, sum(l.chunks) as chunks
            from knowledge_lexeme_statistics l
            where l.datastore_id in ${storeIds} and l.dimensions = ${dimensions}
              and l.lexeme in ${distinct}
            group by l.lexeme) s on s.lexeme = q.lexeme
      cross join totals)
    select m.id, ${score} as relevance
    from (
      select c.id, ${frequencies},
        round(ts_rank(c.search, ${tsquery}::tsquery, 0)::float8
              / nullif(ts_rank(c.search, ${tsquery}::tsquery, 2), 0)::float8) as positions
      from knowledge_chunks c
      where ${filter} and c.search @@ ${tsquery}::tsquery) m
    cross join terms
    order by relevance desc, m.id limit ${candidates}) t`;
}

/**
 * `ts_rank(search, lexeme, 0)` for a lexeme with 1, 2, … 256 positions of weight D (all that
 * to_tsvector makes; a tsvector keeps at most 256 per lexeme), as PostgreSQL computes it in
 * single precision (calc_rank_or in tsrank.c): Σ_{j ≤ n} 0.1 / j², less the first term's 0.1
 * added back, over π²/6 as written there. A lexeme stored without positions counts as one.
 */
const tsRankValues = (() => {
  const weightD = Math.fround(0.1);
  const values: number[] = [];
  let sum = 0;
  for (let count = 1; count <= 256; count += 1) {
    sum = Math.fround(sum + Math.fround(weightD / (count * count)));
    values.push(Math.fround(Math.fround(Math.fround(weightD + sum) - weightD) / 1.64493406685));
  }
  return `{${values.join(",")}}`;
})();

/**
 * Reciprocal rank fusion of two (id, rank) lists in SQL, as (id, rrf) rows: best first, ties by
 * id in byte order, cut to topK.
 */
export function fusedRanks(vectorHits: SQL, textHits: SQL, topK: number): SQL {
  return sql`
    select coalesce(v.id, t.id) as id,
           coalesce(${VECTOR_LIST.weight}::float8 / (${VECTOR_LIST.k} + v.rank), 0)
             + coalesce(${TEXT_LIST.weight}::float8 / (${TEXT_LIST.k} + t.rank), 0) as rrf
    from (${vectorHits}) v full outer join (${textHits}) t on t.id = v.id
    order by rrf desc, coalesce(v.id, t.id) collate "C"
    limit ${topK}`;
}

type Fused = { id: string; rrf: number };

/**
 * Reciprocal rank fusion of rankings made in the application, as fusedRanks computes it, to the
 * bit: the same double-precision terms added in the same order (vector, then text),
 * best first, ties by id in byte order (the statement's `collate "C"`), cut to topK.
 */
export function fuseRankings(rankings: ReadonlyArray<readonly string[]>, topK: number): Fused[] {
  const sums = new Map<string, number>();
  for (const [list, ranking] of rankings.entries()) {
    const { k, weight } = FUSION[list]!;
    ranking.forEach((id, index) => {
      sums.set(id, (sums.get(id) ?? 0) + weight / (k + index + 1));
    });
  }
  const best = new TopList(topK);
  for (const [id, rrf] of sums) best.offer(rrf, id);
  return best.entries().map(({ id, score }) => ({ id, rrf: score }));
}

/**
 * The fused chunks as passages, in fused order. The ids are one parameter each:
 * with as many parameters as rows, PostgreSQL's generic plan costs what a custom one does, so it
 * is planned once per count instead of at every execution (an array would look like ten rows).
 */
async function readChunks(db: Db, fused: ScoredId[]): Promise<Passage[]> {
  if (fused.length === 0) return [];
  const rows = rowsOf<Omit<PassageRow, "score">>(
    await db.execute(sql`
      select ${PASSAGE_COLUMNS}
      from knowledge_chunks c
      join datasources d on d.id = c.datasource_id
      where c.id in ${fused.map((hit) => hit.id)}`),
  );
  const byId = new Map(rows.map((row) => [row.chunk_id, row]));
  return fused.flatMap(({ id, score }) => {
    const row = byId.get(id);
    // A chunk deleted since its datastore's copy was read is left out, as the join leaves it out.
    return row ? [toPassage({ ...row, score })] : [];
  });
}

/** Ids ranked in the application, as (id, rank) rows. */
export const rankedIds = (ids: string[]) =>
  sql`select id, position as rank from unnest(${`{${ids.join(",")}}`}::text[]) with ordinality as r(id, position)`;

type PassageRow = {
  chunk_id: string;
  text: string;
  score: string | number;
  datasource_id: string;
  datasource_name: string;
  datastore_id: string;
  custom_id: string | null;
  page: number | null;
  section: string | null;
  source: string;
};

/** A fused score divided by the best possible one, as passages give it: six decimals, at most 1. */
function passageScore(score: number): number {
  return Math.min(1, Math.round(score * 1e6) / 1e6);
}

function toPassage(row: PassageRow): Passage {
  return {
    chunkId: row.chunk_id,
    text: row.text,
    score: passageScore(Number(row.score)),
    datasourceId: row.datasource_id,
    datasourceName: row.datasource_name,
    datastoreId: row.datastore_id,
    customId: row.custom_id,
    page: row.page,
    section: row.section,
    source: row.source,
  };
}

function chunkFilter(request: ChunkSearch, dimensions: number): SQL {
  const conditions: SQL[] = [
    sql`c.datastore_id in ${request.datastores.map((store) => store.id)}`,
    sql`c.dimensions = ${sql.raw(String(dimensions))}`,
  ];
  const datasourceIds = request.filters?.datasourceIds;
  if (datasourceIds && datasourceIds.length > 0) {
    conditions.push(
      sql`c.datasource_id in (select s.id from datasources s where s.id in ${datasourceIds} or s.group_id in ${datasourceIds})`,
    );
  }
  const customIds = request.filters?.customIds;
  if (customIds && customIds.length > 0) conditions.push(sql`c.custom_id in ${customIds}`);
  return sql.join(conditions, sql` and `);
}
