import { z } from "zod";
import { RETRIEVAL_MODES } from "../../retrieval/hybrid-search.ts";

const name = z.string().trim().min(1).max(200);
const description = z.string().max(10_000);
const type = z.string().trim().min(1).max(50).describe("pgvector (qdrant is accepted as an alias)");
const embeddingModel = z
  .string()
  .regex(/^[a-z0-9-]+:\S+$/, 'must look like "provider:model"')
  .max(200)
  .describe("Extension: provider:model of the embedder; changing it re-embeds every datasource");
const dimensions = z.number().int().min(16).max(16_000);

/** Who may query a datastore: its organization only, or anyone. */
const datastoreVisibility = z.enum(["private", "public"]);

/** The body of POST /api/datastores: the route validates with it, the domain reads its type. */
export const createDatastoreBody = z.object({
  name,
  description: description.optional(),
  type: type.optional(),
  visibility: datastoreVisibility.optional(),
  embeddingModel: embeddingModel.optional(),
  dimensions: dimensions.optional(),
});

export type CreateDatastoreRequest = z.output<typeof createDatastoreBody>;

/** The body of PATCH /api/datastores/{id}: every field of the create body, each optional. */
export const updateDatastoreBody = z.object({
  name: name.optional(),
  description: description.optional(),
  type: type.optional(),
  visibility: datastoreVisibility.optional(),
  embeddingModel: embeddingModel.optional(),
  dimensions: dimensions.optional(),
});

export type UpdateDatastoreRequest = z.output<typeof updateDatastoreBody>;

/** The body of POST /api/datastores/{id}/query. */
export const datastoreQueryBody = z.object({
  query: z.string().trim().min(1).max(10_000),
  topK: z.number().int().min(1).max(100).default(5),
  filters: z
    .object({
      custom_ids: z.array(z.string().max(255)).max(1_000).optional(),
      datasource_ids: z.array(z.string().max(64)).max(1_000).optional(),
    })
    .optional(),
  mode: z
    .enum(RETRIEVAL_MODES)
    .optional()
    .describe("Extension: vector-only or full-text-only ranking instead of the default hybrid"),
});

/** The body of POST /api/datastores/{id}/query, validated (topK filled in). */
export type DatastoreQuery = z.output<typeof datastoreQueryBody>;

/** The spec's Datastore object, plus our extensions (embedder, timestamps). */
export const datastoreResponse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  visibility: datastoreVisibility,
  embeddingModel: z.string(),
  dimensions: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A passage as a datastore query returns it, in the spec's snake_case. */
export const datastoreQueryResult = z.object({
  text: z.string(),
  score: z.number().describe("0..1: reciprocal-rank fusion normalised by its best possible value"),
  source: z.string(),
  datasource_id: z.string(),
  datasource_name: z.string(),
  custom_id: z.string().optional(),
  page: z.number().optional(),
  chunk_id: z.string(),
});
