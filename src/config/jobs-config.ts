import { z } from "zod";
import { intVar } from "./env-types.ts";

export const jobsEnvSchema = z.object({
  JOB_LEASE_SECONDS: intVar(30, 2, 600).describe(
    "How long a running job stays reserved without its process renewing it (a third of it, " +
      "every third of it): once a process dies, its jobs go to another worker within about " +
      "4/3 of this plus the job's retry delay",
  ),
});

export function jobsConfig(env: z.output<typeof jobsEnvSchema>) {
  return { leaseSeconds: env.JOB_LEASE_SECONDS };
}

export type JobsConfig = ReturnType<typeof jobsConfig>;
