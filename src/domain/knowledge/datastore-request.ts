import { z } from "zod";

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
export const datastoreVisibility = z.enum(["private", "public"]);

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
    .enum(["hybrid", "vector", "text"])
    .optional()
    .describe("Extension: vector-only or full-text-only ranking instead of the default hybrid"),
});

/** The body of POST /api/datastores/{id}/query, validated (topK filled in). */
export type DatastoreQuery = z.output<typeof datastoreQueryBody>;
