import { and, asc, eq, isNotNull, ne, notInArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { datasources } from "../../db/schema/index.ts";

export type DatasourceRow = typeof datasources.$inferSelect;

/**
 * Datasources as records: created, read, listed, renamed, deleted, and a web site's pages. How a
 * sync moves a datasource through its statuses is datasource-sync-repo.ts's.
 */
export function createDatasourceRepo(db: Db) {
  const scoped = (organizationId: string, datasourceId: string) =>
    and(eq(datasources.organizationId, organizationId), eq(datasources.id, datasourceId));
  return {
    async insert(row: typeof datasources.$inferInsert, tx: Db = db): Promise<DatasourceRow> {
      const [inserted] = await tx.insert(datasources).values(row).returning();
      return inserted!;
    },

    async find(organizationId: string, datasourceId: string, tx: Db = db) {
      const [row] = await tx.select().from(datasources).where(scoped(organizationId, datasourceId));
      return row ?? null;
    },

    async listByDatastore(organizationId: string, datastoreId: string, tx: Db = db) {
      return tx
        .select()
        .from(datasources)
        .where(
          and(
            eq(datasources.organizationId, organizationId),
            eq(datasources.datastoreId, datastoreId),
          ),
        )
        .orderBy(asc(datasources.createdAt), asc(datasources.id));
    },

    /** Ids of every datasource of the datastore, the pages of web sites included. */
    async idsByDatastore(organizationId: string, datastoreId: string, tx: Db = db) {
      const rows = await tx
        .select({ id: datasources.id })
        .from(datasources)
        .where(
          and(
            eq(datasources.organizationId, organizationId),
            eq(datasources.datastoreId, datastoreId),
          ),
        );
      return rows.map((row) => row.id);
    },

    /** Ids of a web site's pages (none for other datasources). */
    async childIds(organizationId: string, parentId: string, tx: Db = db) {
      const rows = await tx
        .select({ id: datasources.id })
        .from(datasources)
        .where(
          and(eq(datasources.organizationId, organizationId), eq(datasources.groupId, parentId)),
        );
      return rows.map((row) => row.id);
    },

    async delete(organizationId: string, datasourceId: string, tx: Db = db) {
      const [row] = await tx
        .delete(datasources)
        .where(scoped(organizationId, datasourceId))
        .returning();
      return row ?? null;
    },

    async update(
      organizationId: string,
      datasourceId: string,
      changes: Partial<
        Pick<DatasourceRow, "name" | "type" | "config" | "syncSchedule" | "nextSyncAt">
      >,
      tx: Db = db,
    ) {
      const [row] = await tx
        .update(datasources)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(scoped(organizationId, datasourceId))
        .returning();
      return row ?? null;
    },

    /** Tokens stored by the organization outside one datasource (site parents hold none). */
    async storedTokensExcept(organizationId: string, datasourceId: string, tx: Db = db) {
      const [row] = await tx
        .select({ total: sql<string>`coalesce(sum(${datasources.tokenCount}), 0)` })
        .from(datasources)
        .where(
          and(eq(datasources.organizationId, organizationId), ne(datasources.id, datasourceId)),
        );
      return Number(row?.total ?? 0);
    },

    async listChildren(organizationId: string, parentId: string, tx: Db = db) {
      return tx
        .select()
        .from(datasources)
        .where(
          and(eq(datasources.organizationId, organizationId), eq(datasources.groupId, parentId)),
        )
        .orderBy(asc(datasources.createdAt), asc(datasources.id));
    },

    /** Removes the pages of a site that are no longer among `keepUrls` (their chunks go with them). */
    async deleteChildrenExcept(organizationId: string, parentId: string, keepUrls: string[]) {
      const removed = await db
        .delete(datasources)
        .where(
          and(
            eq(datasources.organizationId, organizationId),
            eq(datasources.groupId, parentId),
            isNotNull(datasources.sourceUrl),
            keepUrls.length > 0 ? notInArray(datasources.sourceUrl, keepUrls) : undefined,
          ),
        )
        .returning({ id: datasources.id });
      return removed.length;
    },
  };
}

export type DatasourceRepo = ReturnType<typeof createDatasourceRepo>;
