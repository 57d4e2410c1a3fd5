import type { Db } from "../../db/client.ts";
import type { SyncSchedule } from "../../db/schema/index.ts";
import { detectFileType, UnsupportedFileTypeError } from "../../ingestion/loaders/index.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { AppError, invalid, notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { type SafeFetcher, UnsafeUrlError } from "../../lib/safe-fetch.ts";
import type { Caller } from "../caller.ts";
import type { DatasourceRepo, DatasourceRow } from "./datasource-repo.ts";
import type {
  FileDatasourceInput,
  TextUpdateInput,
  WebDatasourceInput,
} from "./datasource-request.ts";
import type { DatasourceSyncRepo } from "./datasource-sync-repo.ts";
import type { DatastoreRepo } from "./datastore-repo.ts";
import { type DatasourceView, toDatasourceView } from "./knowledge-views.ts";
import { SCHEDULABLE_TYPES, type SyncScheduleRepo } from "./sync-schedule-repo.ts";
import type { UploadRepo } from "./upload-repo.ts";

export type DatasourceServiceDeps = {
  db: Db;
  datastores: Pick<DatastoreRepo, "find">;
  datasources: DatasourceRepo;
  syncRuns: Pick<DatasourceSyncRepo, "failOverdue" | "requestSync" | "fail" | "markQueued">;
  schedules: Pick<SyncScheduleRepo, "setSchedule">;
  uploads: Pick<UploadRepo, "save">;
  jobs: JobQueue;
  fetcher: Pick<SafeFetcher, "check">;
  uploadMaxBytes: number;
  logger: Pick<Logger, "warn">;
};

/** Shown on a datasource whose job died or overran its time (the worker will not report back). */
export const OVERDUE_MESSAGE =
  "Ingestion did not finish in time (the job timed out or its worker stopped)";

/** Why a file or text datasource takes no schedule: its content only changes when sent again. */
export const UNSCHEDULABLE_MESSAGE =
  "syncSchedule applies only to web_page and web_site datasources (a file or text changes only when uploaded again)";

const PAGE_SCHEDULE_MESSAGE =
  "This page belongs to a web_site and is synced with it: set syncSchedule on the web_site";

export function createDatasourceService(deps: DatasourceServiceDeps) {
  const { datasources, syncRuns } = deps;

  async function requireDatastore(organizationId: string, datastoreId: string) {
    const store = await deps.datastores.find(organizationId, datastoreId);
    if (!store) throw notFound("Datastore not found");
    return store;
  }

  async function requireDatasource(organizationId: string, datasourceId: string) {
    await syncRuns.failOverdue(OVERDUE_MESSAGE, organizationId);
    const row = await datasources.find(organizationId, datasourceId);
    if (!row) throw notFound("Datasource not found");
    return row;
  }

  /** Starts a new sync generation and queues its job; the request never waits for it. */
  async function queueSync(organizationId: string, datasourceId: string): Promise<DatasourceRow> {
    const requested = await syncRuns.requestSync(organizationId, datasourceId);
    if (!requested) throw notFound("Datasource not found");
    const generation = requested.syncGeneration;
    try {
      await deps.jobs.send("knowledge.ingest", { organizationId, datasourceId, generation });
    } catch {
      // No run claimed this generation (attempt 0) unless a job was queued after all.
      await syncRuns.fail(
        organizationId,
        datasourceId,
        { generation, attempt: 0 },
        "error",
        "Could not queue the ingestion job",
      );
      return (await datasources.find(organizationId, datasourceId)) ?? requested;
    }
    await syncRuns.markQueued(organizationId, datasourceId, generation);
    return (await datasources.find(organizationId, datasourceId)) ?? requested;
  }

  /**
   * Deletes the queued, not yet started, sync jobs of datasources that were just deleted. A job
   * already running finds its datasource gone and writes nothing; so would a queued one, which is
   * why a failure here is logged rather than failing a deletion that already happened.
   */
  async function dropQueuedSyncs(datasourceIds: string[]): Promise<void> {
    try {
      await deps.jobs.deletePending("knowledge.ingest", "datasourceId", datasourceIds);
    } catch (error) {
      deps.logger.warn({ err: error }, "could not delete the queued jobs of deleted datasources");
    }
  }

  async function assertFetchable(urls: (string | undefined)[]) {
    for (const url of urls) {
      if (url === undefined) continue;
      try {
        await deps.fetcher.check(url);
      } catch (error) {
        // Only policy refusals are final here; a DNS hiccup is left to the job to report.
        if (error instanceof UnsafeUrlError) throw invalid(`config: ${error.message}`);
      }
    }
  }

  return {
    queueSync,
    dropQueuedSyncs,

    async createFile(caller: Caller, input: FileDatasourceInput): Promise<DatasourceView> {
      const { organizationId } = caller;
      await requireDatastore(organizationId, input.datastoreId);
      const { bytes } = input.file;
      if (bytes.byteLength > deps.uploadMaxBytes) {
        throw new AppError(
          "PAYLOAD_TOO_LARGE",
          `The file is larger than ${deps.uploadMaxBytes} bytes`,
        );
      }
      const fileName = input.fileName ?? input.file.fileName ?? "file";
      let mimeType: string;
      try {
        mimeType = detectFileType(bytes, input.file.declaredMime, fileName);
      } catch (error) {
        if (error instanceof UnsupportedFileTypeError) throw invalid(error.message);
        throw error;
      }
      const id = newId();
      await deps.db.transaction(async (tx) => {
        await datasources.insert(
          {
            id,
            organizationId,
            datastoreId: input.datastoreId,
            type: "file",
            name: fileName,
            customId: input.customId ?? null,
            sizeBytes: bytes.byteLength,
            config: { file_name: fileName, mime_type: mimeType, size: bytes.byteLength },
          },
          tx,
        );
        await deps.uploads.save(
          {
            datasourceId: id,
            organizationId,
            fileName,
            mimeType,
            sizeBytes: bytes.byteLength,
            content: bytes,
          },
          tx,
        );
      });
      return toDatasourceView(await queueSync(organizationId, id));
    },

    async createWeb(caller: Caller, input: WebDatasourceInput): Promise<DatasourceView> {
      const { organizationId } = caller;
      await requireDatastore(organizationId, input.datastoreId);
      const sourceUrl = input.config.source_url;
      const sitemap = input.config.sitemap;
      if (input.type === "web_page" && !sourceUrl)
        throw invalid("config.source_url is required for a web_page");
      if (input.type === "web_site" && !sourceUrl && !sitemap) {
        throw invalid("config.sitemap or config.source_url is required for a web_site");
      }
      await assertFetchable(input.type === "web_page" ? [sourceUrl] : [sourceUrl, sitemap]);
      const id = newId();
      const schedule = input.syncSchedule;
      await deps.db.transaction(async (tx) => {
        await datasources.insert(
          {
            id,
            organizationId,
            datastoreId: input.datastoreId,
            type: input.type,
            name: input.name ?? sourceUrl ?? sitemap ?? input.type,
            customId: input.customId ?? null,
            sourceUrl: input.type === "web_page" ? (sourceUrl ?? null) : null,
            config: input.config,
          },
          tx,
        );
        if (schedule) await deps.schedules.setSchedule(organizationId, id, schedule, tx);
      });
      return toDatasourceView(await queueSync(organizationId, id));
    },

    async get(caller: Caller, datasourceId: string): Promise<DatasourceView> {
      return toDatasourceView(await requireDatasource(caller.organizationId, datasourceId));
    },

    async listByDatastore(caller: Caller, datastoreId: string): Promise<DatasourceView[]> {
      await requireDatastore(caller.organizationId, datastoreId);
      await syncRuns.failOverdue(OVERDUE_MESSAGE, caller.organizationId);
      return (await datasources.listByDatastore(caller.organizationId, datastoreId)).map(
        toDatasourceView,
      );
    },

    /**
     * Deletes the datasource, its chunks and upload and, for a web_site, its pages, then the
     * queued sync jobs of all of them.
     */
    async delete(caller: Caller, datasourceId: string): Promise<DatasourceView> {
      const pageIds = await datasources.childIds(caller.organizationId, datasourceId);
      const row = await datasources.delete(caller.organizationId, datasourceId);
      if (!row) throw notFound("Datasource not found");
      await dropQueuedSyncs([row.id, ...pageIds]);
      return toDatasourceView(row);
    },

    /** PATCH /api/datasources/{id}: sets or removes the re-sync schedule of a web datasource. */
    async setSchedule(
      caller: Caller,
      datasourceId: string,
      schedule: SyncSchedule | null,
    ): Promise<DatasourceView> {
      const { organizationId } = caller;
      const current = await requireDatasource(organizationId, datasourceId);
      if (!(SCHEDULABLE_TYPES as readonly string[]).includes(current.type)) {
        throw invalid(UNSCHEDULABLE_MESSAGE);
      }
      if (current.groupId !== null) throw invalid(PAGE_SCHEDULE_MESSAGE);
      const updated = await deps.schedules.setSchedule(organizationId, datasourceId, schedule);
      // Deleted, or turned into text by the deprecated update, since it was read.
      if (!updated) throw notFound("Datasource not found");
      return toDatasourceView(updated);
    },

    async resync(caller: Caller, datasourceId: string): Promise<DatasourceView> {
      await requireDatasource(caller.organizationId, datasourceId);
      return toDatasourceView(await queueSync(caller.organizationId, datasourceId));
    },

    /** Re-syncs every top-level datasource of a datastore (site pages follow their site). */
    async resyncDatastore(organizationId: string, datastoreId: string): Promise<void> {
      for (const row of await datasources.listByDatastore(organizationId, datastoreId)) {
        if (row.groupId === null) await queueSync(organizationId, row.id);
      }
    },

    /** The deprecated POST /api/datastores/update/{datastoreId}: new text for a datasource. */
    async replaceText(
      caller: Caller,
      datastoreId: string,
      input: TextUpdateInput,
    ): Promise<{ id: string }> {
      const { organizationId } = caller;
      await requireDatastore(organizationId, datastoreId);
      const current = await datasources.find(organizationId, input.id);
      if (!current || current.datastoreId !== datastoreId) throw notFound("Datasource not found");
      if (current.type === "web_site") {
        throw invalid("A web_site gets its text from its pages; update one of its pages instead");
      }
      const content = Buffer.from(input.text, "utf8");
      if (content.byteLength > deps.uploadMaxBytes) {
        throw new AppError(
          "PAYLOAD_TOO_LARGE",
          `The text is larger than ${deps.uploadMaxBytes} bytes`,
        );
      }
      const name = input.name ?? current.name;
      const config: Record<string, unknown> = { ...current.config };
      if (input.metadata !== undefined) config.metadata = input.metadata;
      await deps.db.transaction(async (tx) => {
        // Text only changes when sent again: a web page made text loses its schedule.
        await datasources.update(
          organizationId,
          current.id,
          { name, type: "text", config, syncSchedule: null, nextSyncAt: null },
          tx,
        );
        await deps.uploads.save(
          {
            datasourceId: current.id,
            organizationId,
            fileName: name,
            mimeType: "text/plain",
            sizeBytes: content.byteLength,
            content,
          },
          tx,
        );
      });
      await queueSync(organizationId, current.id);
      return { id: current.id };
    },
  };
}

export type DatasourceService = ReturnType<typeof createDatasourceService>;
