import { and, asc, eq, inArray, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, apiKeys } from "../../db/schema/index.ts";

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

    /** The organization's keys that were not revoked, oldest first. */
    listActive(organizationId: string): Promise<ApiKeyRow[]> {
      return db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
        .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
    },

    /** Which of these agent ids are agents of the organization. */
    async agentsOf(organizationId: string, agentIds: readonly string[], tx: Db = db) {
      if (agentIds.length === 0) return new Set<string>();
      const rows = await tx
        .select({ id: agents.id })
        .from(agents)
        .where(and(eq(agents.organizationId, organizationId), inArray(agents.id, [...agentIds])));
      return new Set(rows.map((row) => row.id));
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
