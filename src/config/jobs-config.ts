import { z } from "zod";
import { intVar } from "./env-types.ts";

export const jobsEnvSchema = z.object({
  JOB_LEASE_SECONDS: intVar(30, 2, 600).describe(
    "How long a running job stays reserved unless its process renews it (which it does every " +
      "third of this): a dead process's jobs go to another worker about 4/3 of this later, " +
      "plus the job's retry delay",
  ),
});

export function jobsConfig(env: z.output<typeof jobsEnvSchema>) {
  return { leaseSeconds: env.JOB_LEASE_SECONDS };
}

export type JobsConfig = ReturnType<typeof jobsConfig>;
