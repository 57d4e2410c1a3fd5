import { z } from "zod";
import { optionalString } from "./env-types.ts";

const postgresUrl = optionalString().pipe(
  z
    .string()
    .refine((value) => /^postgres(ql)?:\/\//.test(value), "must be a postgres:// URL")
    .optional(),
);

export const databaseEnvSchema = z.object({
  DATA_DIR: z.string().min(1).default("./data").describe("Where the embedded database lives"),
  DATABASE_URL: postgresUrl.describe("PostgreSQL 15+ instead of the embedded database"),
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
  return { dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL, redisUrl: env.REDIS_URL };
}
