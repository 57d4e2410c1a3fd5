import type { DatasourceStatus } from "../../db/schema/index.ts";
import { AppError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import { OVERDUE_MESSAGE } from "./datasource-service.ts";
import type { DatasourceSyncRepo } from "./datasource-sync-repo.ts";
import type { SyncScheduleRepo } from "./sync-schedule-repo.ts";

export type SyncSchedulerDeps = {
  schedules: Pick<SyncScheduleRepo, "claimDue">;
  syncRuns: Pick<DatasourceSyncRepo, "failOverdue">;
  /** The datasource service's own queueing: a new sync generation and its ingestion job. */
  queueSync(organizationId: string, datasourceId: string): Promise<unknown>;
  logger: Pick<Logger, "info" | "warn">;
};

/** What one scheduler run did: syncs queued, and due datasources left alone because busy. */
export type SchedulerRun = { queued: number; busy: number };

/** Datasources taken per statement; a run takes batches until none is due. */
const CLAIM_BATCH = 100;

/** A sync of these is already queued or running: it serves as this period's sync. */
const BUSY: ReadonlySet<DatasourceStatus> = new Set(["unsynched", "pending", "running"]);

/**
 * The scheduled re-sync (run every minute by the knowledge.sync-schedule job): queues the
 * ordinary sync of every datasource whose next time has come. The next time moves on when the
 * datasource is taken, whatever its sync then does, so a failed sync keeps its schedule.
 */
export function createSyncScheduler(deps: SyncSchedulerDeps) {
  return {
    async runDue(): Promise<SchedulerRun> {
      // A sync whose worker died would otherwise count as busy until someone reads it.
      await deps.syncRuns.failOverdue(OVERDUE_MESSAGE);
      const run: SchedulerRun = { queued: 0, busy: 0 };
      for (;;) {
        const due = await deps.schedules.claimDue(CLAIM_BATCH);
        for (const datasource of due) {
          if (BUSY.has(datasource.status)) {
            run.busy += 1;
            continue;
          }
          try {
            await deps.queueSync(datasource.organizationId, datasource.id);
            run.queued += 1;
          } catch (error) {
            // Deleted since it was taken: nothing left to sync.
            if (error instanceof AppError && error.type === "NOT_FOUND") continue;
            throw error;
          }
        }
        if (due.length < CLAIM_BATCH) break;
      }
      if (run.queued + run.busy > 0) deps.logger.info(run, "scheduled datasource syncs");
      return run;
    },
  };
}
