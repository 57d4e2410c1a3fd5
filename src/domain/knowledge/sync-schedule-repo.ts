import { and, asc, eq, inArray, isNull, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type DatasourceStatus, datasources, type SyncSchedule } from "../../db/schema/index.ts";
import type { DatasourceRow } from "./datasource-repo.ts";

/** The datasource types that can re-sync on a schedule: what a sync fetches again. */
export const SCHEDULABLE_TYPES = ["web_page", "web_site"] as const;

const INTERVALS: Record<SyncSchedule, SQL> = {
  hourly: sql.raw("interval '1 hour'"),
  daily: sql.raw("interval '1 day'"),
  weekly: sql.raw("interval '7 days'"),
};

/** When a datasource on this schedule is next due, counted from now (the database's clock). */
const nextSyncFromNow = (schedule: SyncSchedule): SQL => sql`now() + ${INTERVALS[schedule]}`;

/** The interval of the row's own stored schedule, for statements over many datasources. */
const intervalOfRow = sql`case ${datasources.syncSchedule}
  when 'hourly' then ${INTERVALS.hourly}
  when 'daily' then ${INTERVALS.daily}
  when 'weekly' then ${INTERVALS.weekly} end`;

/** A datasource the scheduler took: its next time is already moved on. */
export type DueDatasource = { organizationId: string; id: string; status: DatasourceStatus };

export function createSyncScheduleRepo(db: Db) {
  return {
    /**
     * Sets (or, with null, removes) the schedule of a top-level web datasource. Setting the
     * schedule it already has keeps its next time; a new one is due one interval from now.
     */
    async setSchedule(
      organizationId: string,
      datasourceId: string,
      schedule: SyncSchedule | null,
      tx: Db = db,
    ): Promise<DatasourceRow | null> {
      const nextSyncAt =
        schedule === null
          ? null
          : sql`case when ${datasources.syncSchedule} = ${schedule} and ${datasources.nextSyncAt} is not null
              then ${datasources.nextSyncAt} else ${nextSyncFromNow(schedule)} end`;
      const [row] = await tx
        .update(datasources)
        .set({ syncSchedule: schedule, nextSyncAt, updatedAt: sql`now()` })
        .where(
          and(
            eq(datasources.organizationId, organizationId),
            eq(datasources.id, datasourceId),
            inArray(datasources.type, [...SCHEDULABLE_TYPES]),
            isNull(datasources.groupId),
          ),
        )
        .returning();
      return row ?? null;
    },

    /**
     * Takes up to `limit` datasources whose scheduled sync is due, across every organization
     * (this is the scheduler's system query), and moves each one's next time to one interval
     * from now in the same statement: a datasource is taken by one scheduler run only, and one
     * that was due many times while the service was down is synced once, not once per period.
     * Rows another run has locked are skipped, not waited for.
     */
    async claimDue(limit: number, tx: Db = db): Promise<DueDatasource[]> {
      const due = tx
        .select({ id: datasources.id })
        .from(datasources)
        .where(lte(datasources.nextSyncAt, sql`now()`))
        .orderBy(asc(datasources.nextSyncAt))
        .limit(limit)
        .for("update", { skipLocked: true });
      return tx
        .update(datasources)
        .set({ nextSyncAt: sql`now() + ${intervalOfRow}` })
        .where(inArray(datasources.id, due))
        .returning({
          organizationId: datasources.organizationId,
          id: datasources.id,
          status: datasources.status,
        });
    },
  };
}

export type SyncScheduleRepo = ReturnType<typeof createSyncScheduleRepo>;
