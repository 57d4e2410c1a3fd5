import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client.ts";
import { knowledgeChunks } from "../../db/schema/index.ts";
import {
  HNSW_EF_CONSTRUCTION,
  indexedVector,
  isIndexable,
  unitHalfvecFunction,
} from "../../retrieval/vector-index.ts";

export type ChunkInsert = typeof knowledgeChunks.$inferInsert;
export type StoredChunkRef = {
  id: string;
  contentHash: string;
  position: number;
  dimensions: number;
};

// Rows per INSERT: 20 columns each stays far below PostgreSQL's 65,535 bind parameters.
const INSERT_BATCH = 500;

export function createChunkRepo(db: Db) {
  return {
    /** Hash and position of every stored chunk of a datasource, in order. */
    async listRefs(
      organizationId: string,
      datasourceId: string,
      tx: Db = db,
    ): Promise<StoredChunkRef[]> {
      return tx
        .select({
          id: knowledgeChunks.id,
          contentHash: knowledgeChunks.contentHash,
          position: knowledgeChunks.position,
          dimensions: knowledgeChunks.dimensions,
        })
        .from(knowledgeChunks)
        .where(
          and(
            eq(knowledgeChunks.organizationId, organizationId),
            eq(knowledgeChunks.datasourceId, datasourceId),
          ),
        )
        .orderBy(asc(knowledgeChunks.position));
    },

    async insertMany(rows: ChunkInsert[], tx: Db = db): Promise<void> {
      for (let start = 0; start < rows.length; start += INSERT_BATCH) {
        await tx.insert(knowledgeChunks).values(rows.slice(start, start + INSERT_BATCH));
      }
    },

    async deleteByIds(organizationId: string, chunkIds: string[], tx: Db = db) {
      for (let start = 0; start < chunkIds.length; start += INSERT_BATCH) {
        await tx
          .delete(knowledgeChunks)
          .where(
            and(
              eq(knowledgeChunks.organizationId, organizationId),
              inArray(knowledgeChunks.id, chunkIds.slice(start, start + INSERT_BATCH)),
            ),
          );
      }
    },

    /** Moves kept chunks to their new positions and custom id without touching their vectors. */
    async updatePlacement(
      organizationId: string,
      updates: { id: string; position: number; customId: string | null }[],
      tx: Db = db,
    ) {
      for (const update of updates) {
        await tx
          .update(knowledgeChunks)
          .set({ position: update.position, customId: update.customId })
          .where(
            and(
              eq(knowledgeChunks.organizationId, organizationId),
              eq(knowledgeChunks.id, update.id),
            ),
          );
      }
    },

    /**
     * Creates the partial HNSW index (vector-index.ts) for one dimension count if it is missing
     * (pgvector only). The migrations create the one of the default embedder (`0003`, rebuilt in
     * half precision by `0028`); other models add theirs on first use.
     */
    async ensureVectorIndex(dimensions: number): Promise<boolean> {
      if (!isIndexable(dimensions)) return false;
      const name = `knowledge_chunks_embedding_${dimensions}_idx`;
      const existing = await db.execute(
        sql`select 1 from pg_indexes where tablename = 'knowledge_chunks' and indexname = ${name}`,
      );
      if (rowsOf(existing).length > 0) return true;
      const [extension] = rowsOf<{ schema: string; defined: string | null }>(
        await db.execute(
          sql`select extnamespace::regnamespace::text as schema,
                to_regproc('knowledge_unit_halfvec') as defined
              from pg_extension where extname = 'vector'`,
        ),
      );
      if (!extension) return false;
      if (!extension.defined) await db.execute(sql.raw(unitHalfvecFunction(extension.schema)));
      await db.execute(
        sql`create index if not exists ${sql.raw(name)} on knowledge_chunks using hnsw
            ((${indexedVector(sql.raw("embedding"), dimensions)}) halfvec_cosine_ops)
            with (ef_construction = ${sql.raw(String(HNSW_EF_CONSTRUCTION))})
            where dimensions = ${sql.raw(String(dimensions))}`,
      );
      return true;
    },

    /**
     * Drops every HNSW index of the chunks: the embedded database keeps none (migration `0003`
     * creates the 512-dimension one wherever pgvector is installed, PGlite included).
     */
    async dropVectorIndexes(): Promise<void> {
      const found = rowsOf<{ indexname: string }>(
        await db.execute(
          sql`select indexname from pg_indexes
              where tablename = 'knowledge_chunks' and indexdef like '% USING hnsw %'`,
        ),
      );
      for (const { indexname } of found) {
        await db.execute(sql.raw(`drop index if exists ${indexname}`));
      }
    },
  };
}

export type ChunkRepo = ReturnType<typeof createChunkRepo>;
