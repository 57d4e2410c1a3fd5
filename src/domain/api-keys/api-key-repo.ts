import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { apiKeys } from "../../db/schema/index.ts";

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

    async revoke(organizationId: string, apiKeyId: string): Promise<ApiKeyRow | null> {
      const [row] = await db
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

    /** Records use at most once a minute per key, so authentication stays read-mostly. */
    async touch(apiKeyId: string): Promise<void> {
      await db
        .update(apiKeys)
        .set({ lastUsedAt: new Date() })
        .where(
          and(
            eq(apiKeys.id, apiKeyId),
            or(
              isNull(apiKeys.lastUsedAt),
              lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`),
            ),
          ),
        );
    },
  };
}

export type ApiKeyRepo = ReturnType<typeof createApiKeyRepo>;
