import { and, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { datasourceUploads } from "../../db/schema/index.ts";

export type UploadRow = typeof datasourceUploads.$inferSelect;

// The bytes travel as base64 text. PGlite converts bytea parameters and results byte by byte in
// JavaScript, on its one connection: storing a 4 MB upload took ~4 s and reading it back ~1 s,
// and every API request waited behind them; as base64, 0.5 s and 0.1 s (PGlite 0.5.14, bench/
// ingest-reads.ts). PostgreSQL decodes either form in C.
const fromBase64 = (bytes: Buffer): SQL => sql`decode(${bytes.toString("base64")}, 'base64')`;
const { content, ...otherColumns } = getTableColumns(datasourceUploads);

/** The stored bytes of uploaded files (and deprecated raw text), which ingestion jobs read. */
export function createUploadRepo(db: Db) {
  return {
    async save(row: typeof datasourceUploads.$inferInsert, tx: Db = db) {
      await tx
        .insert(datasourceUploads)
        .values({ ...row, content: fromBase64(row.content) })
        .onConflictDoUpdate({
          target: datasourceUploads.datasourceId,
          set: {
            fileName: row.fileName,
            mimeType: row.mimeType,
            sizeBytes: row.sizeBytes,
            content: fromBase64(row.content),
            createdAt: sql`now()`,
          },
        });
    },

    async find(
      organizationId: string,
      datasourceId: string,
      tx: Db = db,
    ): Promise<UploadRow | null> {
      const [row] = await tx
        .select({ ...otherColumns, base64: sql<string>`encode(${content}, 'base64')` })
        .from(datasourceUploads)
        .where(
          and(
            eq(datasourceUploads.organizationId, organizationId),
            eq(datasourceUploads.datasourceId, datasourceId),
          ),
        );
      if (!row) return null;
      const { base64, ...rest } = row;
      return { ...rest, content: Buffer.from(base64, "base64") };
    },
  };
}

export type UploadRepo = ReturnType<typeof createUploadRepo>;
