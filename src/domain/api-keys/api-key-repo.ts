import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { apiKeys } from "../../db/schema/index.ts";

/** `last_used_at` is kept to this precision. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function createApiKeyRepo(db: Db) {
  return {
    async insert(row: typeof apiKeys.$inferInsert, tx: Db = db): Promise<ApiKeyRow> {
      const [inserted] = await tx.insert(apiKeys).values(row).returning();
      return inserted!;
    },

    async findActiveByHash(keyHash: string): Promise<ApiKeyRow | null> {
      const [row] = await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
      return row ?? null;
    },

    async revoke(organizationId: string, apiKeyId: string, tx: Db = db): Promise<ApiKeyRow | null> {
      const [row] = await tx
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(apiKeys.id, apiKeyId),
            eq(apiKeys.organizationId, organizationId),
            isNull(apiKeys.revokedAt),
          ),
        )
        .returning();
      return row ?? null;
    },

    /**
     * Records use at most once per LAST_USED_RESOLUTION_MS per key (also when several processes
     * touch it at once), so authentication stays read-mostly.
     */
    async touch(apiKeyId: string): Promise<void> {
      const now = Date.now();
      await db
        .update(apiKeys)
        .set({ lastUsedAt: new Date(now) })
        .where(
          and(
            eq(apiKeys.id, apiKeyId),
            or(
              isNull(apiKeys.lastUsedAt),
              lt(apiKeys.lastUsedAt, new Date(now - LAST_USED_RESOLUTION_MS)),
            ),
          ),
        );
    },
  };
}

export type ApiKeyRepo = ReturnType<typeof createApiKeyRepo>;
