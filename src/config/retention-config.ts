import { z } from "zod";
import { intVar } from "./env-types.ts";

export const retentionEnvSchema = z.object({
  RETENTION_BATCH_SIZE: intVar(500, 1, 10_000).describe(
    "Conversations the retention sweep and a contact's erasure delete per statement: bounds how " +
      "long one statement holds its locks",
  ),
});

export function retentionConfig(env: z.output<typeof retentionEnvSchema>) {
  return { batchSize: env.RETENTION_BATCH_SIZE };
}
