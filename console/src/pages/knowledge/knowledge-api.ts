import { useQuery } from "@tanstack/react-query";
import { type ApiData, api, unwrap } from "../../api/client.ts";

export type Datastore = ApiData<"/api/datastores/{id}", "get">;
export type Datasource = ApiData<"/api/datastores/{id}/datasources", "get">[number];
export type DatasourceStatus = Datasource["status"];
export type SyncSchedule = NonNullable<Datasource["syncSchedule"]>;
export type Passage = ApiData<"/api/datastores/{id}/query", "post">[number];

/** Query keys of the area: every one starts with "knowledge". */
export const knowledgeKeys = {
  datastores: ["knowledge", "datastores"] as const,
  datastore: (id: string) => ["knowledge", "datastore", id] as const,
  datasources: (id: string) => ["knowledge", "datasources", id] as const,
  query: (id: string, body: object) => ["knowledge", "query", id, body] as const,
};

/** The states a sync ends in (docs/knowledge.md, _Status lifecycle_); the others still move. */
const FINAL_STATUSES: ReadonlySet<DatasourceStatus> = new Set([
  "synched",
  "error",
  "usage_limit_reached",
]);

export const isFinal = (status: DatasourceStatus) => FINAL_STATUSES.has(status);

/** How often the datasource list is read again while a sync is under way. */
const SYNC_POLL_MS = 2_000;

export function useDatastore(id: string) {
  return useQuery({
    queryKey: knowledgeKeys.datastore(id),
    queryFn: () => unwrap(api.GET("/api/datastores/{id}", { params: { path: { id } } })),
  });
}

/** The datastore's datasources, read again every 2 s until every sync has ended. */
export function useDatasources(datastoreId: string) {
  return useQuery({
    queryKey: knowledgeKeys.datasources(datastoreId),
    queryFn: () =>
      unwrap(
        api.GET("/api/datastores/{id}/datasources", { params: { path: { id: datastoreId } } }),
      ),
    refetchInterval: (query) =>
      query.state.data?.some((datasource) => !isFinal(datasource.status)) ? SYNC_POLL_MS : false,
  });
}

export const SCHEDULE_LABELS: Record<SyncSchedule | "none", string> = {
  none: "Only when asked",
  hourly: "Every hour",
  daily: "Every day",
  weekly: "Every week",
};
