import { z } from "zod";
import { databaseConfig, databaseEnvSchema } from "./database-config.ts";
import type { Env } from "./env-types.ts";
import { leadsConfig, leadsEnvSchema } from "./leads-config.ts";
import { serverConfig, serverEnvSchema } from "./server-config.ts";

const envSchema = z.object({
  ...serverEnvSchema.shape,
  ...databaseEnvSchema.shape,
  ...leadsEnvSchema.shape,
});

/** Raised at boot when an environment variable has a bad value; the message names it. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export type Config = ReturnType<typeof buildConfig>;

function buildConfig(env: z.output<typeof envSchema>) {
  return {
    server: serverConfig(env),
    database: databaseConfig(env),
    leads: leadsConfig(env),
  };
}

/** Parses every setting once; nothing else in the program reads the environment. */
export function parseConfig(env: Env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) =>
        `${issue.path.join(".")}: ${issue.message} (got ${JSON.stringify(env[String(issue.path[0])])})`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  return buildConfig(parsed.data);
}
