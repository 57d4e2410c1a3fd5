import { z } from "zod";
import { datastoreResponse } from "../../../domain/knowledge/datastore-request.ts";

export const datastoreParams = z.object({ id: z.string().min(1).max(64) });

/** PATCH answers with exactly the spec's Datastore object. */
export const patchedDatastoreResponse = datastoreResponse.pick({
  id: true,
  name: true,
  description: true,
  type: true,
  visibility: true,
});
