import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { datasourceUploads } from "../../db/schema/index.ts";

export type UploadRow = typeof datasourceUploads.$inferSelect;

/** The stored bytes of uploaded files (and deprecated raw text), which ingestion jobs read. */
export function createUploadRepo(db: Db) {
  return {
    async save(row: typeof datasourceUploads.$inferInsert, tx: Db = db) {
      await tx
        .insert(datasourceUploads)
        .values(row)
        .onConflictDoUpdate({
          target: datasourceUploads.datasourceId,
          set: {
            fileName: row.fileName,
            mimeType: row.mimeType,
            sizeBytes: row.sizeBytes,
            content: row.content,
            createdAt: sql`now()`,
          },
        });
    },

    async find(organizationId: string, datasourceId: string, tx: Db = db) {
      const [row] = await tx
        .select()
        .from(datasourceUploads)
        .where(
          and(
            eq(datasourceUploads.organizationId, organizationId),
            eq(datasourceUploads.datasourceId, datasourceId),
          ),
        );
      return row ?? null;
    },
  };
}

export type UploadRepo = ReturnType<typeof createUploadRepo>;
