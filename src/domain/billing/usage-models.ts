/**
 * The provider → model names POST /api/usage/increment-agent-queries accepts, exactly as the spec
 * lists them (case included). Prices come from the model registry, not from here.
 */
export const INCREMENT_MODELS = {
  azure: ["gpt-4o-mini", "gpt-4o"],
  "azure-2": [
    "gpt-4.1-nano",
    "gpt-4.1-mini",
    "gpt-4.1",
    "gpt-5-nano",
    "gpt-5-mini",
    "gpt-5-chat",
    "gpt-5",
  ],
  openai: ["gpt-4.1", "gpt-4.1-mini"],
  gemini: [
    "gemini-2.0-flash",
    "gemini-2.0-flash-exp",
    "gemini-2.5-flash",
    "gemini-2.5-pro",
    "gemini-3-pro",
    "gemini-3-flash",
  ],
  deepseek: ["deepseek-chat", "DeepSeek-V3.2", "DeepSeek-V3.2-thinking"],
  bedrock: ["claude-4-sonnet", "global.anthropic.claude-sonnet-4-20250514-v1:0"],
} as const satisfies Record<string, readonly string[]>;

export type IncrementProvider = keyof typeof INCREMENT_MODELS;

export const INCREMENT_PROVIDERS = Object.keys(INCREMENT_MODELS) as [
  IncrementProvider,
  ...IncrementProvider[],
];

/** True when the spec lists `modelName` under `provider`. */
export function isIncrementModel(provider: IncrementProvider, modelName: string): boolean {
  return (INCREMENT_MODELS[provider] as readonly string[]).includes(modelName);
}
