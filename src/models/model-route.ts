import type { ConcreteModelName } from "./model-catalog.ts";

/** Prompts of at least this many (estimated) tokens go to the larger tier. */
export const MODEL_ROUTE_LONG_PROMPT_TOKENS = 4000;

/**
 * Candidates per tier, best first: OpenAI first (the most common key), then one model of every
 * other provider so that a single configured key of any provider is enough.
 */
const MODEL_ROUTE_TIERS: Readonly<{
  short: readonly ConcreteModelName[];
  long: readonly ConcreteModelName[];
}> = {
  short: [
    "gpt_41_mini",
    "gemini_2_5_flash",
    "claude_4_sonnet",
    "grok_3_mini_beta",
    "llama_3_3_70b",
    "sonar",
  ],
  long: [
    "gpt_41",
    "gemini_2_5_pro",
    "claude_4_sonnet",
    "grok_3",
    "llama_4_maverick_17b",
    "sonar_pro",
  ],
};

/**
 * The `model_route` rule: the tier follows the prompt size (no hint counts as short), and within
 * it the first model whose provider can be reached wins; when none can, the first one (which then
 * runs offline).
 */
export function routeModel(
  promptTokens: number | undefined,
  isReachable: (modelName: ConcreteModelName) => boolean,
): ConcreteModelName {
  const tier =
    promptTokens !== undefined && promptTokens >= MODEL_ROUTE_LONG_PROMPT_TOKENS
      ? MODEL_ROUTE_TIERS.long
      : MODEL_ROUTE_TIERS.short;
  return tier.find(isReachable) ?? tier[0]!;
}
