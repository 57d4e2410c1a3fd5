import type { AcceptedMime, LoadedSection } from "../../ingestion/loaders/index.ts";
import { fetchWebPage, type WebFetchOptions } from "../../ingestion/loaders/web-page.ts";
import type { DocumentParser } from "../../ingestion/parser/document-parser.ts";
import type { Logger } from "../../lib/logger.ts";
import type { SafeFetcher } from "../../lib/safe-fetch.ts";
import type { IngestionOutcome, Metrics } from "../../ops/metrics.ts";
import { type ChunkWriter, SyncAbortedError } from "./chunk-writer.ts";
import type { DatasourceRow } from "./datasource-repo.ts";
import { OVERDUE_MESSAGE } from "./datasource-service.ts";
import type { DatasourceSyncRepo, SyncRun } from "./datasource-sync-repo.ts";
import type { DatastoreRepo } from "./datastore-repo.ts";
import type { EmbedderResolver } from "./embedder-resolver.ts";
import { explainIngestionError, UNEXPECTED_FAILURE } from "./ingestion-errors.ts";
import type { SiteSync } from "./site-sync.ts";
import type { UploadRepo } from "./upload-repo.ts";

export type SyncJob = { organizationId: string; datasourceId: string; generation: number };

export type DatasourceSyncDeps = {
  datastores: Pick<DatastoreRepo, "find">;
  syncRuns: DatasourceSyncRepo;
  uploads: Pick<UploadRepo, "find">;
  embedders: Pick<EmbedderResolver, "embedderFor">;
  writeChunks: ChunkWriter;
  syncSite: SiteSync;
  fetcher: Pick<SafeFetcher, "fetch">;
  parser: Pick<DocumentParser, "load" | "readHtml">;
  settings: { ingestTimeoutMs: number; fetchMaxBytes: number; fetchTimeoutMs: number };
  logger: Logger;
  metrics: Pick<Metrics, "ingestion">;
};

const OVERDUE_GRACE_MS = 30_000;

const ABANDONED_MESSAGE =
  "Ingestion did not finish: every attempt stopped before the end (its worker process stopped " +
  "or the database failed); sync it again to retry";

type Loaded = {
  sections: LoadedSection[];
  sourceUrl: string | null;
  sizeBytes: number;
  name?: string;
};

/**
 * The ingestion job: pending → running → synched | error | usage_limit_reached. Whatever
 * happens inside (a corrupt file, a hung site, a bug), the datasource leaves `running`: the job
 * has its own deadline; a run whose worker died is run again by the job queue once its lease
 * runs out, a bounded number of times, and then ended by `abandonSync`; `failOverdue` on reads
 * is the last resort for a run that outlived its deadline anyway.
 */
export function createDatasourceSync(deps: DatasourceSyncDeps) {
  const { syncRuns, settings } = deps;

  async function load(row: DatasourceRow, fetch: WebFetchOptions): Promise<Loaded> {
    if (row.type === "web_page") {
      const page = await fetchWebPage(String(row.config.source_url ?? row.sourceUrl), fetch);
      return {
        sections: page.sections,
        sourceUrl: page.url,
        sizeBytes: page.sizeBytes,
        ...(page.title && row.groupId !== null ? { name: page.title } : {}),
      };
    }
    const upload = await deps.uploads.find(row.organizationId, row.id);
    if (!upload) throw new Error(`Datasource ${row.id} has no stored upload`);
    const sections = await deps.parser.load(
      {
        bytes: upload.content,
        mimeType: upload.mimeType as AcceptedMime,
        fileName: upload.fileName,
      },
      fetch.signal ? { signal: fetch.signal } : {},
    );
    return { sections, sourceUrl: null, sizeBytes: upload.sizeBytes };
  }

  /** Runs one sync; the outcome it recorded, or null when it recorded none (superseded). */
  async function work(
    row: DatasourceRow,
    run: SyncRun,
    signal: AbortSignal,
  ): Promise<IngestionOutcome | null> {
    const organizationId = row.organizationId;
    const store = await deps.datastores.find(organizationId, row.datastoreId);
    if (!store) return null;
    const embedder = deps.embedders.embedderFor(store);
    const fetch: WebFetchOptions = {
      fetcher: deps.fetcher,
      parser: deps.parser,
      maxBytes: settings.fetchMaxBytes,
      timeoutMs: settings.fetchTimeoutMs,
      signal,
    };
    const guard = { datasourceId: row.id, run };
    if (row.type === "web_site") {
      const result = await deps.syncSite({ site: row, store, embedder, fetch, signal });
      if (result.outcome === "superseded") return null;
      if (result.outcome === "synched") {
        await syncRuns.finishSite(organizationId, row.id, run, {
          chunkCount: result.chunkCount,
          sizeBytes: result.sizeBytes,
          embedderId: store.embedderId,
        });
        return "synched";
      }
      await syncRuns.fail(organizationId, row.id, run, result.outcome, result.message ?? "");
      return result.outcome;
    }
    const loaded = await load(row, fetch);
    const outcome = await deps.writeChunks({ row, store, embedder, guard, signal, ...loaded });
    return outcome === "superseded" ? null : outcome;
  }

  /**
   * One run of a sync. `stopped` is the job's own signal: when the run loses its job (its lease
   * was taken over, or the process is shutting down) it stops and records nothing, since another
   * run of the same job follows.
   */
  async function runSync(job: SyncJob, stopped?: AbortSignal): Promise<void> {
    await syncRuns.failOverdue(OVERDUE_MESSAGE);
    // The job stops itself at ingestTimeoutMs; the stored deadline, after which readers declare
    // the worker dead, leaves it a grace period to record its own, more precise, failure.
    const deadline = new Date(Date.now() + settings.ingestTimeoutMs + OVERDUE_GRACE_MS);
    const row = await syncRuns.claim(
      job.organizationId,
      job.datasourceId,
      job.generation,
      deadline,
    );
    if (!row) return;
    const run = { generation: job.generation, attempt: row.syncAttempt };
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new SyncAbortedError("The ingestion job ran out of time")),
      settings.ingestTimeoutMs,
    );
    const stop = () => controller.abort(stopped?.reason);
    stopped?.addEventListener("abort", stop, { once: true });
    const timedOut = new Promise<never>((_, reject) => {
      controller.signal.addEventListener("abort", () => reject(controller.signal.reason), {
        once: true,
      });
    });
    try {
      // A step that ignores the signal (a stuck parser) must not keep the job running past its time.
      const outcome = await Promise.race([work(row, run, controller.signal), timedOut]);
      if (outcome) deps.metrics.ingestion(outcome);
    } catch (error) {
      if (stopped?.aborted) return;
      const message = controller.signal.aborted
        ? `Ingestion took longer than ${Math.round(settings.ingestTimeoutMs / 1000)} s and was stopped`
        : explainIngestionError(error);
      if (message === null) {
        deps.logger.error({ err: error, datasourceId: row.id }, "ingestion failed");
      }
      await syncRuns.fail(job.organizationId, row.id, run, "error", message ?? UNEXPECTED_FAILURE);
      deps.metrics.ingestion("error");
    } finally {
      clearTimeout(timer);
      stopped?.removeEventListener("abort", stop);
    }
  }

  return {
    runSync,
    /**
     * The dead letter of the ingestion job: every run of this generation died (the job was given
     * up after its retries), so the datasource ends in error instead of waiting forever.
     */
    async abandonSync(job: SyncJob): Promise<void> {
      const ended = await syncRuns.abandon(
        job.organizationId,
        job.datasourceId,
        job.generation,
        ABANDONED_MESSAGE,
      );
      if (!ended) return;
      deps.logger.warn({ datasourceId: job.datasourceId }, "ingestion abandoned");
      deps.metrics.ingestion("abandoned");
    },
  };
}
