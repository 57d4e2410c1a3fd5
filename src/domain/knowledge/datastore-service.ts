import { EmbedderError } from "../../ingestion/embedders/embedder-types.ts";
import { LOCAL_EMBEDDER_ID } from "../../ingestion/embedders/local-embedder.ts";
import { AppError, invalid, notFound, unauthorized } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { ModelError } from "../../models/model-errors.ts";
import type { Caller } from "../caller.ts";
import type { DatastoreChanges, DatastoreRepo, DatastoreRow } from "./datastore-repo.ts";
import type {
  CreateDatastoreRequest,
  DatastoreQuery,
  UpdateDatastoreRequest,
} from "./datastore-request.ts";
import type { EmbedderChoice, EmbedderResolver } from "./embedder-resolver.ts";
import type { KnowledgeSearch } from "./knowledge-search.ts";
import {
  type DatastoreView,
  type QueryResultView,
  toDatastoreView,
  toQueryResultView,
} from "./knowledge-views.ts";

/** The index this server really runs; `qdrant` (the value the spec shows) is accepted as an alias. */
export const NATIVE_DATASTORE_TYPE = "pgvector";
const TYPE_ALIASES: Record<string, typeof NATIVE_DATASTORE_TYPE> = {
  pgvector: NATIVE_DATASTORE_TYPE,
  qdrant: NATIVE_DATASTORE_TYPE,
};

export type DatastoreServiceDeps = {
  datastores: DatastoreRepo;
  embedders: Pick<EmbedderResolver, "defaultChoice" | "embedderFor">;
  search: Pick<KnowledgeSearch, "searchDatastores">;
  /** Makes sure chunks of this many dimensions have a vector index (no-op without pgvector). */
  ensureVectorIndex(dimensions: number): Promise<void>;
  /** Queues a re-sync of every datasource of the datastore (after an embedder change). */
  resyncDatastore(organizationId: string, datastoreId: string): Promise<void>;
  /** Ids of every datasource of the datastore, web pages included. */
  datasourceIdsOf(organizationId: string, datastoreId: string): Promise<string[]>;
  /** Deletes the queued sync jobs of datasources that were deleted. */
  dropQueuedSyncs(datasourceIds: string[]): Promise<void>;
};

export function createDatastoreService(deps: DatastoreServiceDeps) {
  const { datastores } = deps;

  async function require(organizationId: string, datastoreId: string): Promise<DatastoreRow> {
    const row = await datastores.find(organizationId, datastoreId);
    if (!row) throw notFound("Datastore not found");
    return row;
  }

  function embedderChoice(
    input: CreateDatastoreRequest | UpdateDatastoreRequest,
    current?: EmbedderChoice,
  ): EmbedderChoice | null {
    if (input.embeddingModel === undefined && input.dimensions === undefined) return null;
    const fallback = current ?? deps.embedders.defaultChoice();
    const embedderId = input.embeddingModel ?? fallback.embedderId;
    const dimensions =
      input.dimensions ??
      (embedderId === fallback.embedderId ? fallback.dimensions : defaultDimensions(embedderId));
    const choice = { embedderId, dimensions };
    try {
      deps.embedders.embedderFor(choice);
    } catch (error) {
      if (error instanceof ModelError || error instanceof EmbedderError) {
        throw invalid(`embeddingModel: ${(error as Error).message}`);
      }
      throw error;
    }
    return choice;
  }

  return {
    async create(caller: Caller, input: CreateDatastoreRequest): Promise<DatastoreView> {
      const choice = embedderChoice(input) ?? deps.embedders.defaultChoice();
      await deps.ensureVectorIndex(choice.dimensions);
      const row = await datastores.insert({
        id: newId(),
        organizationId: caller.organizationId,
        name: input.name,
        description: input.description ?? "",
        type: nativeType(input.type),
        visibility: input.visibility ?? "private",
        embedderId: choice.embedderId,
        dimensions: choice.dimensions,
      });
      return toDatastoreView(row);
    },

    async list(caller: Caller): Promise<DatastoreView[]> {
      return (await datastores.list(caller.organizationId)).map(toDatastoreView);
    },

    async get(caller: Caller, datastoreId: string): Promise<DatastoreView> {
      return toDatastoreView(await require(caller.organizationId, datastoreId));
    },

    async update(
      caller: Caller,
      datastoreId: string,
      input: UpdateDatastoreRequest,
    ): Promise<DatastoreView> {
      const current = await require(caller.organizationId, datastoreId);
      const changes: DatastoreChanges = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.description !== undefined) changes.description = input.description;
      if (input.visibility !== undefined) changes.visibility = input.visibility;
      if (input.type !== undefined) nativeType(input.type);
      const choice = embedderChoice(input, current);
      const reembed =
        choice !== null &&
        (choice.embedderId !== current.embedderId || choice.dimensions !== current.dimensions);
      if (reembed) {
        await deps.ensureVectorIndex(choice.dimensions);
        changes.embedderId = choice.embedderId;
        changes.dimensions = choice.dimensions;
      }
      const row = await datastores.update(caller.organizationId, datastoreId, changes);
      if (!row) throw notFound("Datastore not found");
      if (reembed) await deps.resyncDatastore(caller.organizationId, datastoreId);
      return toDatastoreView(row);
    },

    /** Deletes the datastore with its datasources and chunks, then their queued sync jobs. */
    async delete(caller: Caller, datastoreId: string): Promise<DatastoreView> {
      // Read before the delete, which cascades to the datasources.
      const datasourceIds = await deps.datasourceIdsOf(caller.organizationId, datastoreId);
      const row = await datastores.delete(caller.organizationId, datastoreId);
      if (!row) throw notFound("Datastore not found");
      await deps.dropQueuedSyncs(datasourceIds);
      return toDatastoreView(row);
    },

    /**
     * POST /api/datastores/{id}/query: a public datastore answers anyone; a private one only its
     * organization (anonymous callers get 401, other organizations 404).
     */
    async query(
      caller: Caller | null,
      datastoreId: string,
      request: DatastoreQuery,
    ): Promise<QueryResultView[]> {
      const store = await datastores.findReadable(caller?.organizationId ?? null, datastoreId);
      if (!store) {
        if (caller === null) throw unauthorized("A valid API key is required for this datastore");
        throw notFound("Datastore not found");
      }
      const results = await deps.search.searchDatastores([store], {
        query: request.query,
        topK: request.topK,
        filters: {
          customIds: request.filters?.custom_ids ?? [],
          datasourceIds: request.filters?.datasource_ids ?? [],
        },
        ...(request.mode ? { mode: request.mode } : {}),
      });
      return results.map(toQueryResultView);
    },
  };
}

export type DatastoreService = ReturnType<typeof createDatastoreService>;

function nativeType(type: string | undefined): typeof NATIVE_DATASTORE_TYPE {
  if (type === undefined) return NATIVE_DATASTORE_TYPE;
  const native = TYPE_ALIASES[type.toLowerCase()];
  if (!native) {
    throw new AppError(
      "INVALID_REQUEST",
      `Unsupported datastore type "${type}": this server runs ${NATIVE_DATASTORE_TYPE} (qdrant is accepted as an alias and stored as ${NATIVE_DATASTORE_TYPE})`,
    );
  }
  return native;
}

// Sizes of well-known models; others need `dimensions` (or EMBEDDINGS_DIMENSIONS for the default).
const KNOWN_DIMENSIONS: Record<string, number> = {
  [LOCAL_EMBEDDER_ID]: 512,
  "openai:text-embedding-3-small": 1536,
  "openai:text-embedding-3-large": 3072,
  "openai:text-embedding-ada-002": 1536,
  "google:text-embedding-004": 768,
};

function defaultDimensions(embedderId: string): number {
  const known = KNOWN_DIMENSIONS[embedderId];
  if (known === undefined) {
    throw invalid(`dimensions: give the vector size of ${embedderId}`);
  }
  return known;
}
