import type { DatasourceStatus, DatasourceType } from "../../db/schema/index.ts";
import type { DatasourceRow } from "./datasource-repo.ts";
import type { DatastoreRow } from "./datastore-repo.ts";
import type { KnowledgeSearchResult } from "./knowledge-search.ts";

/** The spec's Datastore object, plus our extensions (embedder, timestamps). */
export type DatastoreView = {
  id: string;
  name: string;
  description: string;
  type: string;
  visibility: "private" | "public";
  embeddingModel: string;
  dimensions: number;
  createdAt: string;
  updatedAt: string;
};

/** The spec's Datasource object, plus datastoreId, customId, errorMessage and counts. */
export type DatasourceView = {
  id: string;
  datastoreId: string;
  type: DatasourceType;
  name: string;
  groupId: string | null;
  status: DatasourceStatus;
  errorMessage: string | null;
  config: Record<string, unknown>;
  customId: string | null;
  chunkCount: number;
  tokenCount: number;
  sizeBytes: number;
  lastSynch: string | null;
  createdAt: string;
  updatedAt: string;
};

/** One passage of a datastore query, in the spec's snake_case. */
export type QueryResultView = {
  text: string;
  score: number;
  source: string;
  datasource_id: string;
  datasource_name: string;
  custom_id?: string;
  page?: number;
  chunk_id: string;
};

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
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toQueryResultView(hit: KnowledgeSearchResult): QueryResultView {
  const view: QueryResultView = {
    text: hit.text,
    score: hit.score,
    source: hit.source,
    datasource_id: hit.datasourceId,
    datasource_name: hit.datasourceName,
    chunk_id: hit.chunkId,
  };
  if (hit.customId !== null) view.custom_id = hit.customId;
  if (hit.page !== null) view.page = hit.page;
  return view;
}
