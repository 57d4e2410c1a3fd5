import { z } from "zod";

export const datasourceParams = z.object({ id: z.string().min(1).max(64) });
export const datastoreIdParams = z.object({ datastoreId: z.string().min(1).max(64) });
