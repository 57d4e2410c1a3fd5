import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatDateTime, formatInteger } from "../../ui/format.ts";
import { ConfirmButton, FormError } from "../../ui/forms.tsx";
import {
  type Datasource,
  type DatasourceStatus,
  isFinal,
  knowledgeKeys,
  SCHEDULE_LABELS,
  type SyncSchedule,
} from "./knowledge-api.ts";
import { formatBytes } from "./knowledge-format.ts";

const TYPE_LABELS: Record<string, string> = {
  file: "File",
  web_page: "Web page",
  web_site: "Web site",
  text: "Text",
};

const STATUS_TONES: Record<DatasourceStatus, string> = {
  unsynched: "badge",
  pending: "badge badge-info",
  running: "badge badge-info",
  synched: "badge badge-ok",
  error: "badge badge-danger",
  usage_limit_reached: "badge badge-warn",
};

/** The spec's status word, as the API returns it, with a colour that only repeats it. */
function StatusBadge({ status }: { status: DatasourceStatus }) {
  return <span className={`datasource-status ${STATUS_TONES[status]}`}>{status}</span>;
}

/** Where a web datasource reads from, as a link; nothing for files. */
function sourceOf(datasource: Datasource): string | null {
  const { source_url: sourceUrl, sitemap } = datasource.config;
  if (typeof sourceUrl === "string") return sourceUrl;
  if (typeof sitemap === "string") return sitemap;
  return null;
}

/**
 * The datastore's datasources: status word, chunks, size, sync; a web site's pages under it,
 * shown on demand. Members and above sync again, delete and set a web source's schedule.
 */
export function DatasourceTable({
  datastoreId,
  datasources,
}: {
  datastoreId: string;
  datasources: Datasource[];
}) {
  const { canWrite } = useSession();
  const queryClient = useQueryClient();
  const [openSites, setOpenSites] = useState<ReadonlySet<string>>(new Set());
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: knowledgeKeys.datasources(datastoreId) });

  const sync = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST("/api/datasources/{id}/synch", { params: { path: { id } } })),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE("/api/datasources/{id}", { params: { path: { id } } })),
    onSettled: refresh,
  });
  const schedule = useMutation({
    mutationFn: ({ id, syncSchedule }: { id: string; syncSchedule: SyncSchedule | null }) =>
      unwrap(
        api.PATCH("/api/datasources/{id}", { params: { path: { id } }, body: { syncSchedule } }),
      ),
    onSettled: refresh,
  });
  const failure = sync.error ?? remove.error ?? schedule.error;

  const pagesOf = new Map<string, Datasource[]>();
  for (const datasource of datasources) {
    if (datasource.groupId === null) continue;
    pagesOf.set(datasource.groupId, [...(pagesOf.get(datasource.groupId) ?? []), datasource]);
  }
  const topLevel = datasources.filter(
    (datasource) =>
      datasource.groupId === null || !datasources.some((site) => site.id === datasource.groupId),
  );
  const syncing = datasources.filter((datasource) => !isFinal(datasource.status)).length;

  const toggle = (siteId: string) =>
    setOpenSites((current) => {
      const next = new Set(current);
      if (next.has(siteId)) next.delete(siteId);
      else next.add(siteId);
      return next;
    });

  const row = (datasource: Datasource, site: Datasource | null) => {
    const source = sourceOf(datasource);
    const pages = pagesOf.get(datasource.id) ?? [];
    const schedulable =
      site === null && (datasource.type === "web_page" || datasource.type === "web_site");
    const busy =
      (sync.isPending && sync.variables === datasource.id) ||
      (remove.isPending && remove.variables === datasource.id);
    return (
      <tr key={datasource.id} className={site ? "datasource-page" : undefined}>
        <th scope="row">
          <span className="datasource-name">
            {site && <span className="visually-hidden">Page of {site.name}: </span>}
            {datasource.name}
          </span>
          {source && (
            <a className="datasource-source" href={source} target="_blank" rel="noreferrer">
              {source}
            </a>
          )}
          {pages.length > 0 && (
            <button
              type="button"
              className="button button-quiet datasource-pages-toggle"
              aria-expanded={openSites.has(datasource.id)}
              onClick={() => toggle(datasource.id)}
            >
              {openSites.has(datasource.id) ? "Hide" : "Show"} {formatInteger(pages.length)}{" "}
              {pages.length === 1 ? "page" : "pages"}
            </button>
          )}
        </th>
        <td>{TYPE_LABELS[datasource.type] ?? datasource.type}</td>
        <td>
          <StatusBadge status={datasource.status} />
          {(datasource.status === "error" || datasource.status === "usage_limit_reached") &&
            datasource.errorMessage && (
              <p className="datasource-error">{datasource.errorMessage}</p>
            )}
        </td>
        <td className="number">{formatInteger(datasource.chunkCount)}</td>
        <td className="number">{formatBytes(datasource.sizeBytes)}</td>
        <td>
          <span className="datasource-synched">{formatDateTime(datasource.lastSynch)}</span>
          {schedulable && canWrite && (
            <select
              aria-label={`Re-sync schedule of ${datasource.name}`}
              value={datasource.syncSchedule ?? "none"}
              disabled={schedule.isPending}
              onChange={(event) =>
                schedule.mutate({
                  id: datasource.id,
                  syncSchedule:
                    event.target.value === "none" ? null : (event.target.value as SyncSchedule),
                })
              }
            >
              {Object.entries(SCHEDULE_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
          {schedulable && !canWrite && (
            <span className="muted datasource-schedule">
              {SCHEDULE_LABELS[datasource.syncSchedule ?? "none"]}
            </span>
          )}
          {datasource.nextSyncAt && (
            <span className="muted datasource-schedule">
              Next: {formatDateTime(datasource.nextSyncAt)}
            </span>
          )}
        </td>
        <td>{formatDateTime(datasource.updatedAt)}</td>
        {canWrite && (
          <td>
            <div className="knowledge-row-actions">
              <button
                type="button"
                className="button"
                disabled={busy || !isFinal(datasource.status)}
                onClick={() => sync.mutate(datasource.id)}
              >
                Sync again
              </button>
              <ConfirmButton
                label="Delete"
                title={`Delete ${datasource.name}?`}
                description={
                  datasource.type === "web_site"
                    ? "The site, its pages and their chunks are removed from the datastore. Agents stop finding them at once."
                    : "The datasource and its chunks are removed from the datastore. Agents stop finding it at once."
                }
                confirmLabel="Delete datasource"
                disabled={busy}
                onConfirm={() => remove.mutate(datasource.id)}
              />
            </div>
          </td>
        )}
      </tr>
    );
  };

  return (
    <>
      <FormError error={failure} />
      <p className="muted datasource-summary" role="status">
        {formatInteger(datasources.length)}{" "}
        {datasources.length === 1 ? "datasource" : "datasources"}
        {syncing > 0 && ` · ${formatInteger(syncing)} syncing, the list refreshes by itself`}
      </p>
      <div className="table-wrap">
        <table className="knowledge-table datasource-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col" className="number">
                Chunks
              </th>
              <th scope="col" className="number">
                Size
              </th>
              <th scope="col">Last synced</th>
              <th scope="col">Updated</th>
              {canWrite && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {topLevel.map((datasource) => (
              <Fragment key={datasource.id}>
                {row(datasource, null)}
                {openSites.has(datasource.id) &&
                  (pagesOf.get(datasource.id) ?? []).map((page) => row(page, datasource))}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
