import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { annotationTags } from "../../db/schema/index.ts";

export type AnnotationTagRow = typeof annotationTags.$inferSelect;

export function createAnnotationTagRepo(db: Db) {
  return {
    /** Inserts the tag; null when the organization already has one of that name (any case). */
    async insert(
      row: { id: string; organizationId: string; name: string },
      tx: Db = db,
    ): Promise<AnnotationTagRow | null> {
      const [inserted] = await tx
        .insert(annotationTags)
        .values(row)
        .onConflictDoNothing()
        .returning();
      return inserted ?? null;
    },

    async list(organizationId: string, tx: Db = db): Promise<AnnotationTagRow[]> {
      return tx
        .select()
        .from(annotationTags)
        .where(eq(annotationTags.organizationId, organizationId))
        .orderBy(asc(sql`lower(${annotationTags.name})`), asc(annotationTags.id));
    },

    /** The subset of tagIds that exist in the organization. */
    async findExistingIds(organizationId: string, tagIds: string[], tx: Db = db) {
      if (tagIds.length === 0) return new Set<string>();
      const rows = await tx
        .select({ id: annotationTags.id })
        .from(annotationTags)
        .where(
          and(
            eq(annotationTags.organizationId, organizationId),
            inArray(annotationTags.id, tagIds),
          ),
        );
      return new Set(rows.map((row) => row.id));
    },
  };
}

export type AnnotationTagRepo = ReturnType<typeof createAnnotationTagRepo>;
