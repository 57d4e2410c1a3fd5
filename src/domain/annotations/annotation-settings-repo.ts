import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { annotationSettings } from "../../db/schema/index.ts";

/** Accepted when an organization never configured its statuses (the spec's two values). */
const DEFAULT_ANNOTATION_STATUSES: readonly string[] = ["pending", "completed"];

export function createAnnotationSettingsRepo(db: Db) {
  return {
    async findStatuses(organizationId: string, tx: Db = db): Promise<string[]> {
      const [row] = await tx
        .select({ statuses: annotationSettings.statuses })
        .from(annotationSettings)
        .where(eq(annotationSettings.organizationId, organizationId));
      return row?.statuses ?? [...DEFAULT_ANNOTATION_STATUSES];
    },

    async saveStatuses(organizationId: string, statuses: string[], tx: Db = db) {
      await tx
        .insert(annotationSettings)
        .values({ organizationId, statuses })
        .onConflictDoUpdate({
          target: annotationSettings.organizationId,
          set: { statuses, updatedAt: new Date() },
        });
    },
  };
}

export type AnnotationSettingsRepo = ReturnType<typeof createAnnotationSettingsRepo>;
