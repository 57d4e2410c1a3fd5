import type { DatasourceStatus, DatasourceType, SyncSchedule } from "../../db/schema/index.ts";
import type { Passage } from "../../retrieval/passage.ts";
import type { DatasourceRow } from "./datasource-repo.ts";
import type { DatastoreRow } from "./datastore-repo.ts";

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

/**
 * The spec's Datasource object, plus datastoreId, customId, errorMessage, counts and the re-sync
 * schedule (`lastSynch` is the end of the last successful sync).
 */
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
  syncSchedule: SyncSchedule | null;
  /** When the scheduled re-sync is next due; null without a schedule. */
  nextSyncAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** A passage as a datastore query returns it, in the spec's snake_case. */
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
