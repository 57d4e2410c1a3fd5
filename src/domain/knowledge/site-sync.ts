import type { Embedder } from "../../ingestion/embedders/embedder-types.ts";
import { fetchWebPage, type WebFetchOptions } from "../../ingestion/loaders/web-page.ts";
import { discoverSitePages } from "../../ingestion/loaders/web-site.ts";
import { newId } from "../../lib/ids.ts";
import type { ChunkWriter, WriteOutcome } from "./chunk-writer.ts";
import type { DatasourceRepo, DatasourceRow } from "./datasource-repo.ts";
import type { DatasourceSyncRepo } from "./datasource-sync-repo.ts";
import type { DatastoreRow } from "./datastore-repo.ts";
import { describeIngestionError } from "./ingestion-errors.ts";

export type SiteSyncDeps = {
  datasources: DatasourceRepo;
  syncRuns: Pick<DatasourceSyncRepo, "setChildStatus">;
  writeChunks: ChunkWriter;
  pageLimit: number;
};

export type SiteOutcome = {
  outcome: WriteOutcome | "error";
  message: string | null;
  chunkCount: number;
  sizeBytes: number;
};

/**
 * Syncs a web_site: lists its pages (sitemap, robots.txt, /sitemap.xml or crawl), deletes the
 * pages that disappeared, then indexes each page as a child datasource (groupId = the site).
 */
export function createSiteSync(deps: SiteSyncDeps) {
  const { datasources, syncRuns } = deps;

  return async function syncSite(input: {
    site: DatasourceRow;
    store: DatastoreRow;
    embedder: Embedder;
    fetch: WebFetchOptions;
    signal: AbortSignal;
  }): Promise<SiteOutcome> {
    const { site, store, signal } = input;
    const organizationId = site.organizationId;
    const run = { generation: site.syncGeneration, attempt: site.syncAttempt };
    const setStatus = (childId: string, status: "running" | "error", message?: string) =>
      syncRuns.setChildStatus(organizationId, childId, { id: site.id, run }, status, message);
    const config = site.config as { sitemap?: string; source_url?: string };
    const discovered = await discoverSitePages(
      {
        ...(config.sitemap ? { sitemap: config.sitemap } : {}),
        ...(config.source_url ? { sourceUrl: config.source_url } : {}),
      },
      deps.pageLimit,
      input.fetch,
    );
    await datasources.deleteChildrenExcept(organizationId, site.id, discovered.urls);
    const existing = new Map(
      (await datasources.listChildren(organizationId, site.id)).map((child) => [
        child.sourceUrl,
        child,
      ]),
    );

    let chunkCount = 0;
    let sizeBytes = 0;
    let synched = 0;
    let limited: string | null = null;
    let firstError: string | null = null;
    for (const url of discovered.urls) {
      signal.throwIfAborted();
      const child =
        existing.get(url) ??
        (await datasources.insert({
          id: newId(),
          organizationId,
          datastoreId: site.datastoreId,
          groupId: site.id,
          type: "web_page",
          name: url,
          sourceUrl: url,
          customId: site.customId,
          config: { source_url: url },
        }));
      await setStatus(child.id, "running");
      try {
        const failure = discovered.failures.get(url);
        if (failure) throw failure;
        const page = discovered.pages.get(url) ?? (await fetchWebPage(url, input.fetch));
        const outcome = await deps.writeChunks({
          row: child,
          store,
          embedder: input.embedder,
          sections: page.sections,
          sourceUrl: page.url,
          sizeBytes: page.sizeBytes,
          ...(page.title ? { name: page.title } : {}),
          guard: { datasourceId: site.id, run },
          signal,
        });
        if (outcome === "superseded") return { outcome, message: null, chunkCount, sizeBytes };
        if (outcome === "usage_limit_reached") {
          limited ??= `Page ${url} would exceed the organization's knowledge limit`;
          continue;
        }
        synched += 1;
        chunkCount += (await datasources.find(organizationId, child.id))?.chunkCount ?? 0;
        sizeBytes += page.sizeBytes;
      } catch (error) {
        if (signal.aborted) throw error;
        const message = describeIngestionError(error);
        firstError ??= `${url}: ${message}`;
        await setStatus(child.id, "error", message);
      }
    }
    if (limited) return { outcome: "usage_limit_reached", message: limited, chunkCount, sizeBytes };
    if (synched === 0 && discovered.urls.length > 0) {
      return {
        outcome: "error",
        message: `None of the ${discovered.urls.length} pages could be indexed (first: ${firstError})`,
        chunkCount,
        sizeBytes,
      };
    }
    return { outcome: "synched", message: null, chunkCount, sizeBytes };
  };
}

export type SiteSync = ReturnType<typeof createSiteSync>;
