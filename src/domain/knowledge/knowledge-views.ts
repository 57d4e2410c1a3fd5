import type { z } from "zod";
import type { Passage } from "../../retrieval/passage.ts";
import type { DatasourceRow } from "./datasource-repo.ts";
import type { datasourceResponse } from "./datasource-request.ts";
import type { DatastoreRow } from "./datastore-repo.ts";
import type { datastoreQueryResult, datastoreResponse } from "./datastore-request.ts";

export type DatastoreView = z.output<typeof datastoreResponse>;
export type DatasourceView = z.output<typeof datasourceResponse>;
export type QueryResultView = z.output<typeof datastoreQueryResult>;

export function toDatastoreView(row: DatastoreRow): DatastoreView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    visibility: row.visibility,
    embeddingModel: row.embedderId,
    dimensions: row.dimensions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toDatasourceView(row: DatasourceRow): DatasourceView {
  return {
    id: row.id,
    datastoreId: row.datastoreId,
    type: row.type,
    name: row.name,
    groupId: row.groupId,
    status: row.status,
    errorMessage: row.errorMessage,
    config: row.config,
    customId: row.customId,
    chunkCount: row.chunkCount,
    tokenCount: row.tokenCount,
    sizeBytes: row.sizeBytes,
    lastSynch: row.lastSynch?.toISOString() ?? null,
    syncSchedule: row.syncSchedule,
    nextSyncAt: row.nextSyncAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toQueryResultView(passage: Passage): QueryResultView {
  const view: QueryResultView = {
    text: passage.text,
    score: passage.score,
    source: passage.source,
    datasource_id: passage.datasourceId,
    datasource_name: passage.datasourceName,
    chunk_id: passage.chunkId,
  };
  if (passage.customId !== null) view.custom_id = passage.customId;
  if (passage.page !== null) view.page = passage.page;
  return view;
}
