import { z } from "zod";
import { intVar, optionalString } from "./env-types.ts";

const postgresUrl = optionalString().pipe(
  z
    .string()
    .refine((value) => /^postgres(ql)?:\/\//.test(value), "must be a postgres:// URL")
    .optional(),
);

export const databaseEnvSchema = z.object({
  DATA_DIR: z.string().min(1).default("./data").describe("Where the embedded database lives"),
  DATABASE_URL: postgresUrl.describe("PostgreSQL 15+ instead of the embedded database"),
  PGLITE_SHARED_BUFFERS_MB: intVar(128, 1, 4_096).describe(
    "Page cache of the embedded database, resident from boot; 16 saves about 120 MB of RSS",
  ),
  REDIS_URL: optionalString()
    .pipe(
      z
        .string()
        .refine((value) => /^rediss?:\/\//.test(value), "must be a redis:// URL")
        .optional(),
    )
    .describe("Shares rate-limit counters between API processes"),
});

export function databaseConfig(env: z.output<typeof databaseEnvSchema>) {
  return {
    dataDir: env.DATA_DIR,
    pgliteSharedBuffersMb: env.PGLITE_SHARED_BUFFERS_MB,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
  };
}
