/** Every `modelName` an agent may have, in the spec's order; usable as `z.enum(AGENT_MODEL_NAMES)`. */
export const AGENT_MODEL_NAMES = [
  "gpt_4o",
  "gpt_4o_mini",
  "gpt_41",
  "gpt_41_mini",
  "gpt_41_nano",
  "claude_3_7_sonnet",
  "claude_4_sonnet",
  "gemini_2_5_flash",
  "gemini_2_5_pro",
  "grok_3",
  "grok_3_beta",
  "grok_3_fast_beta",
  "grok_3_mini_beta",
  "grok_3_mini_fast_beta",
  "sonar_pro",
  "sonar",
  "llama_3_3_70b",
  "llama_4_maverick_17b",
  "model_route",
] as const;

export type AgentModelName = (typeof AGENT_MODEL_NAMES)[number];

/** `model_route` is a rule (see model-route.ts), every other name is one concrete model. */
export type ConcreteModelName = Exclude<AgentModelName, "model_route">;

/** Providers the registry can build models for; each is one installed AI SDK provider package. */
export const PROVIDER_NAMES = [
  "openai",
  "anthropic",
  "google",
  "xai",
  "perplexity",
  "deepseek",
  "groq",
] as const;

export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The environment variable that carries each provider's key (read by config, named in messages). */
export const PROVIDER_API_KEY_ENV: Readonly<Record<ProviderName, string>> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
  xai: "XAI_API_KEY",
  perplexity: "PERPLEXITY_API_KEY",
  deepseek: "DEEPSEEK_API_KEY",
  groq: "GROQ_API_KEY",
};

export type ModelCatalogEntry = {
  provider: ProviderName;
  providerModelId: string;
  /** Credits charged per million input (prompt) tokens. */
  inputCreditsPerMillion: number;
  /** Credits charged per million output (completion) tokens. */
  outputCreditsPerMillion: number;
};

export type ModelCatalog = Readonly<Record<ConcreteModelName, ModelCatalogEntry>>;

const entry = (
  provider: ProviderName,
  providerModelId: string,
  inputCreditsPerMillion: number,
  outputCreditsPerMillion: number,
): ModelCatalogEntry => ({
  provider,
  providerModelId,
  inputCreditsPerMillion,
  outputCreditsPerMillion,
});

/**
 * The built-in table: one credit is one US dollar of the provider's list price per million tokens
 * (docs/models.md). The llama models go to Groq, an OpenAI-compatible endpoint.
 */
export const DEFAULT_MODEL_CATALOG: ModelCatalog = {
  gpt_4o: entry("openai", "gpt-4o", 2.5, 10),
  gpt_4o_mini: entry("openai", "gpt-4o-mini", 0.15, 0.6),
  gpt_41: entry("openai", "gpt-4.1", 2, 8),
  gpt_41_mini: entry("openai", "gpt-4.1-mini", 0.4, 1.6),
  gpt_41_nano: entry("openai", "gpt-4.1-nano", 0.1, 0.4),
  claude_3_7_sonnet: entry("anthropic", "claude-3-7-sonnet-20250219", 3, 15),
  claude_4_sonnet: entry("anthropic", "claude-sonnet-4-20250514", 3, 15),
  gemini_2_5_flash: entry("google", "gemini-2.5-flash", 0.3, 2.5),
  gemini_2_5_pro: entry("google", "gemini-2.5-pro", 1.25, 10),
  grok_3: entry("xai", "grok-3", 3, 15),
  grok_3_beta: entry("xai", "grok-3-beta", 3, 15),
  grok_3_fast_beta: entry("xai", "grok-3-fast-beta", 5, 25),
  grok_3_mini_beta: entry("xai", "grok-3-mini-beta", 0.3, 0.5),
  grok_3_mini_fast_beta: entry("xai", "grok-3-mini-fast-beta", 0.6, 4),
  sonar_pro: entry("perplexity", "sonar-pro", 3, 15),
  sonar: entry("perplexity", "sonar", 1, 1),
  llama_3_3_70b: entry("groq", "llama-3.3-70b-versatile", 0.59, 0.79),
  llama_4_maverick_17b: entry("groq", "meta-llama/llama-4-maverick-17b-128e-instruct", 0.2, 0.6),
};

export const isConcreteModelName = (name: string): name is ConcreteModelName =>
  name !== "model_route" && (AGENT_MODEL_NAMES as readonly string[]).includes(name);
