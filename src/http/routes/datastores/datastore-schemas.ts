import { z } from "zod";
import { datastoreVisibility } from "../../../domain/knowledge/datastore-request.ts";

export const datastoreParams = z.object({ id: z.string().min(1).max(64) });

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

/** PATCH answers with exactly the spec's Datastore object. */
export const patchedDatastoreResponse = datastoreResponse.pick({
  id: true,
  name: true,
  description: true,
  type: true,
  visibility: true,
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
