import { and, eq, exists, inArray, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.ts";
import { type DatasourceStatus, datasources } from "../../db/schema/index.ts";

/** The statuses from which a job of the current generation may (re)start the work. */
const CLAIMABLE: DatasourceStatus[] = ["unsynched", "pending", "running", "error"];

/** The columns of a sync that ended without its result: the status, why, and no deadline left. */
const failedWith = (status: "error" | "usage_limit_reached", message: string) => ({
  status,
  errorMessage: message,
  syncDeadlineAt: null,
  updatedAt: sql`now()`,
});

/** One run of a sync: its generation and, once it claimed the datasource, its attempt. */
export type SyncRun = { generation: number; attempt: number };

export type SyncResult = {
  chunkCount: number;
  tokenCount: number;
  sizeBytes: number;
  embedderId: string;
  name?: string;
};

/**
 * A datasource's sync as a state machine on its row: a request starts a generation, a job claims
 * it (each claim a new attempt that fences off the ones before), and the run ends synched or
 * failed; what a dead or overdue run leaves is failed by the sweeps. The records themselves are
 * datasource-repo.ts's.
 */
export function createDatasourceSyncRepo(db: Db) {
  const scoped = (organizationId: string, datasourceId: string) =>
    and(eq(datasources.organizationId, organizationId), eq(datasources.id, datasourceId));
  const ofGeneration = (organizationId: string, datasourceId: string, generation: number) =>
    and(scoped(organizationId, datasourceId), eq(datasources.syncGeneration, generation));
  const ofRun = (organizationId: string, datasourceId: string, run: SyncRun) =>
    and(
      ofGeneration(organizationId, datasourceId, run.generation),
      eq(datasources.syncAttempt, run.attempt),
    );

  return {
    /** Starts a new sync generation; jobs of older generations then discard their results. */
    async requestSync(organizationId: string, datasourceId: string, tx: Db = db) {
      const [row] = await tx
        .update(datasources)
        .set({
          syncGeneration: sql`${datasources.syncGeneration} + 1`,
          syncAttempt: 0,
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

    /**
     * → running with a deadline, if this generation's work is still to do; null otherwise. The
     * returned row's `syncAttempt` is the new run's: it fences off every earlier run.
     */
    async claim(organizationId: string, datasourceId: string, generation: number, deadline: Date) {
      const [row] = await db
        .update(datasources)
        .set({
          status: "running",
          errorMessage: null,
          syncAttempt: sql`${datasources.syncAttempt} + 1`,
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

    /** Ends this run's sync in `error` or `usage_limit_reached` with a message. */
    async fail(
      organizationId: string,
      datasourceId: string,
      run: SyncRun,
      status: "error" | "usage_limit_reached",
      message: string,
      tx: Db = db,
    ) {
      await tx
        .update(datasources)
        .set(failedWith(status, message))
        .where(ofRun(organizationId, datasourceId, run));
    },

    /**
     * Ends a generation whose every run died (its job was given up) in `error`, unless it
     * already ended; true when it did.
     */
    async abandon(
      organizationId: string,
      datasourceId: string,
      generation: number,
      message: string,
    ) {
      const rows = await db
        .update(datasources)
        .set(failedWith("error", message))
        .where(
          and(
            ofGeneration(organizationId, datasourceId, generation),
            inArray(datasources.status, ["unsynched", "pending", "running"]),
          ),
        )
        .returning({ id: datasources.id });
      return rows.length > 0;
    },

    /** Locks the row while a run writes its chunks; null when a newer run or generation took over. */
    async lockRun(organizationId: string, datasourceId: string, run: SyncRun, tx: Db) {
      const [row] = await tx
        .select()
        .from(datasources)
        .where(ofRun(organizationId, datasourceId, run))
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
      run: SyncRun,
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
        .where(ofRun(organizationId, datasourceId, run));
    },

    /** Reports runs whose job died or overran as failed, so nothing stays `running` forever. */
    async failOverdue(message: string, organizationId?: string) {
      await db
        .update(datasources)
        .set(failedWith("error", message))
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

    /** Serialises the stored-token check of one organization across concurrent syncs. */
    async lockOrganizationUsage(organizationId: string, tx: Db) {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`knowledge:${organizationId}`}))`,
      );
    },

    /**
     * Sets the status of a site's page directly (pages are synced inside their site's job), while
     * `siteRun` is still the site's current run.
     */
    async setChildStatus(
      organizationId: string,
      childId: string,
      site: { id: string; run: SyncRun },
      status: DatasourceStatus,
      errorMessage: string | null = null,
    ) {
      const parent = alias(datasources, "parent");
      await db
        .update(datasources)
        .set({ status, errorMessage, updatedAt: sql`now()` })
        .where(
          and(
            scoped(organizationId, childId),
            exists(
              db
                .select({ id: parent.id })
                .from(parent)
                .where(
                  and(
                    eq(parent.id, site.id),
                    eq(parent.syncGeneration, site.run.generation),
                    eq(parent.syncAttempt, site.run.attempt),
                  ),
                ),
            ),
          ),
        );
    },
  };
}

export type DatasourceSyncRepo = ReturnType<typeof createDatasourceSyncRepo>;
