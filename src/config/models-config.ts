import { readFileSync } from "node:fs";
import { z } from "zod";
import { PROVIDER_API_KEY_ENV, type ProviderName } from "../models/model-catalog.ts";
import { parseModelCatalogOverridesJson } from "../models/model-overrides.ts";
import { intVar, optionalString, optionalUrl } from "./env-types.ts";

const providerKeyVars = Object.fromEntries(
  Object.values(PROVIDER_API_KEY_ENV).map((name) => [name, optionalString()]),
) as Record<string, ReturnType<typeof optionalString>>;

const modelSpec = (fallback: string) =>
  z
    .string()
    .regex(/^[a-z0-9-]+:\S+$/, 'must look like "provider:model", e.g. openai:gpt-4o-mini')
    .default(fallback);

export const modelsEnvSchema = z.object({
  ...providerKeyVars,
  OPENAI_BASE_URL: optionalUrl().describe("Another endpoint for the openai provider"),
  LLM_BASE_URL: optionalUrl().describe("Send every model to one OpenAI-compatible endpoint"),
  LLM_API_KEY: optionalString(),
  MODELS_FILE: optionalString().describe("JSON file overriding the model catalog"),
  FOLLOW_UP_MODEL: modelSpec("openai:gpt-4o-mini"),
  TRANSCRIPTION_MODEL: modelSpec("openai:whisper-1"),
  TRANSCRIPTION_BASE_URL: optionalUrl().describe("e.g. a local whisper server"),
  TRANSCRIPTION_API_KEY: optionalString(),
  MODEL_TIMEOUT_MS: intVar(60_000, 1_000, 600_000),
  MODEL_MAX_OUTPUT_TOKENS: intVar(4_096, 16, 200_000).describe(
    "Most tokens an agent's model may write per answer step; bounds the credits held for it",
  ),
});

type ModelsEnv = z.output<typeof modelsEnvSchema>;

function readOverrides(path: string | undefined) {
  if (!path) return undefined;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new Error(`MODELS_FILE: cannot read ${path}`);
  }
  return parseModelCatalogOverridesJson(text, "MODELS_FILE");
}

export function modelsConfig(env: ModelsEnv) {
  const keys = env as unknown as Record<string, string | undefined>;
  const providerKeys: Partial<Record<ProviderName, string>> = {};
  for (const [provider, variable] of Object.entries(PROVIDER_API_KEY_ENV)) {
    const key = keys[variable];
    if (key) providerKeys[provider as ProviderName] = key;
  }
  return {
    registry: {
      providerKeys,
      openaiBaseUrl: env.OPENAI_BASE_URL,
      llmBaseUrl: env.LLM_BASE_URL,
      llmApiKey: env.LLM_API_KEY,
      overrides: readOverrides(env.MODELS_FILE),
    },
    followUpModel: env.FOLLOW_UP_MODEL,
    transcriptionModel: env.TRANSCRIPTION_MODEL,
    transcriptionEndpoint: {
      baseUrl: env.TRANSCRIPTION_BASE_URL,
      apiKey: env.TRANSCRIPTION_API_KEY,
    },
    timeoutMs: env.MODEL_TIMEOUT_MS,
    maxOutputTokens: env.MODEL_MAX_OUTPUT_TOKENS,
  };
}
