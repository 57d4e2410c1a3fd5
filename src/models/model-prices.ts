import type { ModelCatalog } from "./model-catalog.ts";

/** Credits per million tokens. */
export type ModelPrice = { input: number; output: number };

/** The provider name and model id the offline responder reports; it costs nothing. */
export const OFFLINE_PROVIDER = "local";
export const OFFLINE_MODEL_ID = "local-extractive";

/** The provider name reported for models sent to LLM_BASE_URL. */
export const COMPATIBLE_PROVIDER = "openai-compatible";

// The spec's usage endpoint names hosting platforms rather than model makers; the maker's list
// price applies.
const PROVIDER_ALIASES: Readonly<Record<string, string>> = {
  azure: "openai",
  "azure-2": "openai",
  gemini: "google",
  bedrock: "anthropic",
};

// Models that no agent modelName maps to but that usage records (POST
// /api/usage/increment-agent-queries) may name. USD list price per million tokens, as credits.
const EXTRA_PRICES: ReadonlyArray<readonly [string, string, number, number]> = [
  ["openai", "gpt-5", 1.25, 10],
  ["openai", "gpt-5-mini", 0.25, 2],
  ["openai", "gpt-5-nano", 0.05, 0.4],
  ["openai", "gpt-5-chat", 1.25, 10],
  ["google", "gemini-2.0-flash", 0.1, 0.4],
  ["google", "gemini-2.0-flash-exp", 0.1, 0.4],
  ["google", "gemini-3-pro", 2, 12],
  ["google", "gemini-3-flash", 0.5, 3],
  ["deepseek", "deepseek-chat", 0.28, 0.42],
  ["deepseek", "deepseek-reasoner", 0.28, 0.42],
  ["deepseek", "deepseek-v3.2", 0.28, 0.42],
  ["deepseek", "deepseek-v3.2-thinking", 0.28, 0.42],
  ["anthropic", "claude-4-sonnet", 3, 15],
  ["anthropic", "global.anthropic.claude-sonnet-4-20250514-v1:0", 3, 15],
];

const key = (provider: string, modelId: string) =>
  `${provider.toLowerCase()}\u0000${modelId.toLowerCase()}`;

/** A price lookup over the (overridden) catalog plus the extra list; unknown pairs give undefined. */
export function createPriceLookup(
  catalog: ModelCatalog,
): (provider: string, providerModelId: string) => ModelPrice | undefined {
  const byProviderAndModel = new Map<string, ModelPrice>();
  const byModel = new Map<string, ModelPrice>();
  for (const [provider, modelId, input, output] of EXTRA_PRICES) {
    byProviderAndModel.set(key(provider, modelId), { input, output });
    byModel.set(modelId.toLowerCase(), { input, output });
  }
  // Catalog entries come last so that MODELS_FILE prices win over the built-in extras.
  for (const entry of Object.values(catalog)) {
    const price = { input: entry.inputCreditsPerMillion, output: entry.outputCreditsPerMillion };
    byProviderAndModel.set(key(entry.provider, entry.providerModelId), price);
    byModel.set(entry.providerModelId.toLowerCase(), price);
  }
  return (provider, providerModelId) => {
    const normalized = provider.toLowerCase();
    if (normalized === OFFLINE_PROVIDER) return { input: 0, output: 0 };
    // LLM_BASE_URL models keep the price of the catalog entry whose model id they carry.
    if (normalized === COMPATIBLE_PROVIDER) return byModel.get(providerModelId.toLowerCase());
    const maker = PROVIDER_ALIASES[normalized] ?? normalized;
    return byProviderAndModel.get(key(maker, providerModelId));
  };
}
