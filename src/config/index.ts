import { z } from "zod";
import { accountsConfig, accountsEnvSchema } from "./accounts-config.ts";
import { agentsConfig, agentsEnvSchema } from "./agents-config.ts";
import { annotationsConfig, annotationsEnvSchema } from "./annotations-config.ts";
import { channelsConfig, channelsEnvSchema } from "./channels-config.ts";
import { databaseConfig, databaseEnvSchema } from "./database-config.ts";
import type { Env } from "./env-types.ts";
import { jobsConfig, jobsEnvSchema } from "./jobs-config.ts";
import { knowledgeConfig, knowledgeEnvSchema } from "./knowledge-config.ts";
import { leadsConfig, leadsEnvSchema } from "./leads-config.ts";
import { modelsConfig, modelsEnvSchema } from "./models-config.ts";
import { publicChatConfig, publicChatEnvSchema } from "./public-chat-config.ts";
import { retentionConfig, retentionEnvSchema } from "./retention-config.ts";
import { serverConfig, serverEnvSchema } from "./server-config.ts";
import { transcriptionConfig, transcriptionEnvSchema } from "./transcription-config.ts";
import { webhooksConfig, webhooksEnvSchema } from "./webhooks-config.ts";

/** Every environment variable the service reads, each with its bounds and default. */
export const envSchema = z.object({
  ...serverEnvSchema.shape,
  ...databaseEnvSchema.shape,
  ...jobsEnvSchema.shape,
  ...leadsEnvSchema.shape,
  ...knowledgeEnvSchema.shape,
  ...modelsEnvSchema.shape,
  ...agentsEnvSchema.shape,
  ...publicChatEnvSchema.shape,
  ...annotationsEnvSchema.shape,
  ...transcriptionEnvSchema.shape,
  ...webhooksEnvSchema.shape,
  ...retentionEnvSchema.shape,
  ...accountsEnvSchema.shape,
  ...channelsEnvSchema.shape,
});

/**
 * Raised at boot when an environment variable has a bad value, or names a server that cannot be
 * reached; the message names the variable.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export type Config = ReturnType<typeof buildConfig>;

function buildConfig(env: z.output<typeof envSchema>) {
  return {
    server: serverConfig(env),
    database: databaseConfig(env),
    jobs: jobsConfig(env),
    leads: leadsConfig(env),
    knowledge: knowledgeConfig(env),
    models: modelsConfig(env),
    agents: agentsConfig(env),
    publicChat: publicChatConfig(env),
    annotations: annotationsConfig(env),
    transcription: transcriptionConfig(env),
    webhooks: webhooksConfig(env),
    retention: retentionConfig(env),
    accounts: accountsConfig(env, { host: env.HOST, port: env.PORT }),
    channels: channelsConfig(env),
  };
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|SMTP_URL/;

/** Parses every setting once; nothing else in the program reads the environment. */
export function parseConfig(env: Env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      const shown = SECRET_NAME.test(name) ? "[redacted]" : JSON.stringify(env[name]);
      return `${name}: ${issue.message} (got ${shown})`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  try {
    return buildConfig(parsed.data);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
}
