import { z } from "zod";

export const datastoreParams = z.object({ id: z.string().min(1).max(64) });

const name = z.string().trim().min(1).max(200);
const description = z.string().max(10_000);
const type = z.string().trim().min(1).max(50).describe("pgvector (qdrant is accepted as an alias)");
const visibility = z.enum(["private", "public"]);
const embeddingModel = z
  .string()
  .regex(/^[a-z0-9-]+:\S+$/, 'must look like "provider:model"')
  .max(200)
  .describe("Extension: provider:model of the embedder; changing it re-embeds every datasource");
const dimensions = z.number().int().min(16).max(16_000);

export const createDatastoreBody = z.object({
  name,
  description: description.optional(),
  type: type.optional(),
  visibility: visibility.optional(),
  embeddingModel: embeddingModel.optional(),
  dimensions: dimensions.optional(),
});

export const updateDatastoreBody = z.object({
  name: name.optional(),
  description: description.optional(),
  type: type.optional(),
  visibility: visibility.optional(),
  embeddingModel: embeddingModel.optional(),
  dimensions: dimensions.optional(),
});

export const datastoreResponse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  visibility: visibility,
  embeddingModel: z.string(),
  dimensions: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** PATCH answers with exactly the spec's Datastore object. */
export const patchedDatastoreResponse = datastoreResponse.pick({
  id: true,
  name: true,
  description: true,
  type: true,
  visibility: true,
});

export const queryBody = z.object({
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

export const queryResponse = z.array(
  z.object({
    text: z.string(),
    score: z
      .number()
      .describe("0..1: reciprocal-rank fusion normalised by its best possible value"),
    source: z.string(),
    datasource_id: z.string(),
    datasource_name: z.string(),
    custom_id: z.string().optional(),
    page: z.number().optional(),
    chunk_id: z.string(),
  }),
);
