import { and, asc, eq, inArray, isNotNull, lt, ne, notInArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type DatasourceStatus, datasources, organizations } from "../../db/schema/index.ts";

export type DatasourceRow = typeof datasources.$inferSelect;

/** The statuses from which a job of the current generation may (re)start the work. */
const CLAIMABLE: DatasourceStatus[] = ["unsynched", "pending", "running", "error"];

export type SyncResult = {
  chunkCount: number;
  tokenCount: number;
  sizeBytes: number;
  embedderId: string;
  name?: string;
};

export function createDatasourceRepo(db: Db) {
  const scoped = (organizationId: string, datasourceId: string) =>
    and(eq(datasources.organizationId, organizationId), eq(datasources.id, datasourceId));
  const ofGeneration = (organizationId: string, datasourceId: string, generation: number) =>
    and(scoped(organizationId, datasourceId), eq(datasources.syncGeneration, generation));

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
      changes: Partial<Pick<DatasourceRow, "name" | "type" | "config">>,
      tx: Db = db,
    ) {
      const [row] = await tx
        .update(datasources)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(scoped(organizationId, datasourceId))
        .returning();
      return row ?? null;
    },

    /** Starts a new sync generation; jobs of older generations then discard their results. */
    async requestSync(organizationId: string, datasourceId: string, tx: Db = db) {
      const [row] = await tx
        .update(datasources)
        .set({
          syncGeneration: sql`${datasources.syncGeneration} + 1`,
          status: "unsynched",
          errorMessage: null,
          syncDeadlineAt: null,
          updatedAt: sql`now()`,
        })
        .where(scoped(organizationId, datasourceId))
        .returning();
      return row ?? null;
    },

    /** unsynched → pending once the job is queued (a no-op when a worker already took it). */
    async markQueued(organizationId: string, datasourceId: string, generation: number) {
      await db
        .update(datasources)
        .set({ status: "pending", updatedAt: sql`now()` })
        .where(
          and(
            ofGeneration(organizationId, datasourceId, generation),
            eq(datasources.status, "unsynched"),
          ),
        );
    },

    /** → running with a deadline, if this generation's work is still to do; null otherwise. */
    async claim(organizationId: string, datasourceId: string, generation: number, deadline: Date) {
      const [row] = await db
        .update(datasources)
        .set({
          status: "running",
          errorMessage: null,
          syncDeadlineAt: deadline,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            ofGeneration(organizationId, datasourceId, generation),
            inArray(datasources.status, CLAIMABLE),
          ),
        )
        .returning();
      return row ?? null;
    },

    /** Ends this generation's sync in `error` or `usage_limit_reached` with a message. */
    async fail(
      organizationId: string,
      datasourceId: string,
      generation: number,
      status: "error" | "usage_limit_reached",
      message: string,
      tx: Db = db,
    ) {
      await tx
        .update(datasources)
        .set({ status, errorMessage: message, syncDeadlineAt: null, updatedAt: sql`now()` })
        .where(ofGeneration(organizationId, datasourceId, generation));
    },

    /** Locks the row while a sync writes its chunks; null when a newer generation took over. */
    async lockGeneration(organizationId: string, datasourceId: string, generation: number, tx: Db) {
      const [row] = await tx
        .select()
        .from(datasources)
        .where(ofGeneration(organizationId, datasourceId, generation))
        .for("update");
      return row ?? null;
    },

    async markSynched(organizationId: string, datasourceId: string, result: SyncResult, tx: Db) {
      await tx
        .update(datasources)
        .set({
          ...result,
          status: "synched",
          errorMessage: null,
          syncDeadlineAt: null,
          lastSynch: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(scoped(organizationId, datasourceId));
    },

    /** A site is synched once its pages are; it stores no chunks of its own. */
    async finishSite(
      organizationId: string,
      datasourceId: string,
      generation: number,
      result: Omit<SyncResult, "tokenCount">,
    ) {
      await db
        .update(datasources)
        .set({
          ...result,
          tokenCount: 0,
          status: "synched",
          errorMessage: null,
          syncDeadlineAt: null,
          lastSynch: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(ofGeneration(organizationId, datasourceId, generation));
    },

    /** Reports runs whose job died or overran as failed, so nothing stays `running` forever. */
    async failOverdue(message: string, organizationId?: string) {
      await db
        .update(datasources)
        .set({
          status: "error",
          errorMessage: message,
          syncDeadlineAt: null,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(datasources.status, "running"),
            lt(datasources.syncDeadlineAt, sql`now()`),
            organizationId === undefined
              ? undefined
              : eq(datasources.organizationId, organizationId),
          ),
        );
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

    async planOf(organizationId: string, tx: Db = db): Promise<string | null> {
      const [row] = await tx
        .select({ plan: organizations.plan })
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      return row?.plan ?? null;
    },

    /** Serialises the stored-token check of one organization across concurrent syncs. */
    async lockOrganizationUsage(organizationId: string, tx: Db) {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`knowledge:${organizationId}`}))`,
      );
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

    /** Sets the status of a site's page directly (pages are synced inside their site's job). */
    async setChildStatus(
      organizationId: string,
      childId: string,
      status: DatasourceStatus,
      errorMessage: string | null = null,
    ) {
      await db
        .update(datasources)
        .set({ status, errorMessage, updatedAt: sql`now()` })
        .where(scoped(organizationId, childId));
    },
  };
}

export type DatasourceRepo = ReturnType<typeof createDatasourceRepo>;
