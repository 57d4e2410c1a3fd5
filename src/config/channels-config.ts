import { z } from "zod";
import { intVar, optionalString, optionalUrl } from "./env-types.ts";

export const channelsEnvSchema = z.object({
  SECRETS_KEY: optionalString().describe(
    "32 bytes (base64 or hex) that encrypt channel credentials at rest; generated under DATA_DIR for the embedded database",
  ),
  TELEGRAM_API_BASE_URL: optionalUrl().describe(
    "Telegram Bot API; default https://api.telegram.org",
  ),
  META_GRAPH_API_BASE_URL: optionalUrl().describe(
    "Meta Graph API (WhatsApp, Messenger, Instagram); default https://graph.facebook.com",
  ),
  META_GRAPH_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, "must look like v23.0")
    .default("v23.0")
    .describe("Graph API version in the URLs of Meta's APIs"),
  SLACK_API_BASE_URL: optionalUrl().describe("Slack Web API; default https://slack.com/api"),
  CHANNEL_BATCH_DELAY_MS: intVar(2_000, 0, 60_000).describe(
    "Messages of one channel conversation arriving within this delay are answered as one turn",
  ),
});

/** A 32-byte key written as base64 (44 characters) or hex (64). */
function parseSecretsKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value)
    ? Buffer.from(value, "hex")
    : Buffer.from(value, "base64");
  if (key.length !== 32) throw new Error("SECRETS_KEY: must be 32 bytes, in base64 or hex");
  return key;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

export function channelsConfig(env: z.output<typeof channelsEnvSchema>) {
  return {
    secretsKey: env.SECRETS_KEY === undefined ? undefined : parseSecretsKey(env.SECRETS_KEY),
    platforms: {
      telegramApiBaseUrl: withoutTrailingSlash(
        env.TELEGRAM_API_BASE_URL ?? "https://api.telegram.org",
      ),
      metaGraphApiBaseUrl: withoutTrailingSlash(
        env.META_GRAPH_API_BASE_URL ?? "https://graph.facebook.com",
      ),
      metaGraphApiVersion: env.META_GRAPH_API_VERSION,
      slackApiBaseUrl: withoutTrailingSlash(env.SLACK_API_BASE_URL ?? "https://slack.com/api"),
    },
    batchDelayMs: env.CHANNEL_BATCH_DELAY_MS,
  };
}

export type ChannelsConfig = ReturnType<typeof channelsConfig>;
export type PlatformSettings = ChannelsConfig["platforms"];
