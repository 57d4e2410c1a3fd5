import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { apiKeys, organizations } from "../../db/schema/index.ts";
import type { PageCursor } from "../../lib/page-cursor.ts";

/** An API key as the operator may see it: never its hash. */
const keyColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  keyPrefix: apiKeys.keyPrefix,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

/** The operator's reads across organizations (the admin API's and the CLI's lists). */
export function createOrganizationDirectoryRepo(db: Db) {
  return {
    /** Newest first, keyset-paged by (createdAt, id); `cursorAt` is the exact timestamp. */
    async listOrganizations(before: PageCursor | null, limit: number) {
      return db
        .select({
          id: organizations.id,
          name: organizations.name,
          billingModel: organizations.billingModel,
          plan: organizations.plan,
          subscriptionStatus: organizations.subscriptionStatus,
          queryLimit: organizations.queryLimit,
          conversationRetentionDays: organizations.conversationRetentionDays,
          createdAt: organizations.createdAt,
          cursorAt: sql<string>`${organizations.createdAt}::text`,
        })
        .from(organizations)
        .where(
          before
            ? sql`(${organizations.createdAt}, ${organizations.id}) < (${before.createdAt}::timestamptz, ${before.id})`
            : undefined,
        )
        .orderBy(desc(organizations.createdAt), desc(organizations.id))
        .limit(limit);
    },

    /** The organization's keys, newest first, revoked ones included. */
    async listApiKeys(organizationId: string) {
      return db
        .select(keyColumns)
        .from(apiKeys)
        .where(eq(apiKeys.organizationId, organizationId))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    },
  };
}

export type OrganizationDirectoryRepo = ReturnType<typeof createOrganizationDirectoryRepo>;
