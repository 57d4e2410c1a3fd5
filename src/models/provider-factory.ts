import { createAnthropic } from "@ai-sdk/anthropic";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createPerplexity } from "@ai-sdk/perplexity";
import { createXai } from "@ai-sdk/xai";
import { PROVIDER_API_KEY_ENV, type ProviderName } from "./model-catalog.ts";
import { ModelUnavailableError } from "./model-errors.ts";
import { COMPATIBLE_PROVIDER } from "./model-prices.ts";
import type { EmbeddingModelV3, LanguageModelV3, TranscriptionModelV3 } from "./model-types.ts";

export type ProviderFactoryOptions = {
  providerKeys: Partial<Record<ProviderName, string>>;
  openaiBaseUrl?: string;
  llmBaseUrl?: string;
  llmApiKey?: string;
  fetch?: typeof fetch;
};

// Explicit endpoints: without them some AI SDK providers fall back to reading *_BASE_URL from
// process.env, and configuration must come only from the parsed config.
const DEFAULT_BASE_URLS: Readonly<Record<ProviderName, string>> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
  xai: "https://api.x.ai/v1",
  perplexity: "https://api.perplexity.ai",
  deepseek: "https://api.deepseek.com",
  groq: "https://api.groq.com/openai/v1",
};

/** Builds AI SDK model instances; a provider is created once per factory and reused. */
export function createProviderFactory(options: ProviderFactoryOptions) {
  const keyOf = (provider: ProviderName) => {
    const key = options.providerKeys[provider]?.trim();
    return key ? key : undefined;
  };
  const baseUrlOf = (provider: ProviderName) =>
    (provider === "openai" ? options.openaiBaseUrl : undefined) ?? DEFAULT_BASE_URLS[provider];

  const requireKey = (provider: ProviderName, what: string) => {
    const key = keyOf(provider);
    if (!key) {
      throw new ModelUnavailableError(
        `${what} needs ${PROVIDER_API_KEY_ENV[provider]}, which is not set`,
      );
    }
    return key;
  };

  const cache = new Map<string, unknown>();
  const memo = <T>(name: string, build: () => T): T => {
    if (!cache.has(name)) cache.set(name, build());
    return cache.get(name) as T;
  };

  const openai = (apiKey: string, baseURL: string, name = "openai") =>
    memo(`openai|${name}|${baseURL}|${apiKey}`, () =>
      createOpenAI({ apiKey, baseURL, name, fetch: options.fetch }),
    );
  const google = (what: string) =>
    memo("google", () =>
      createGoogleGenerativeAI({
        apiKey: requireKey("google", what),
        baseURL: baseUrlOf("google"),
        fetch: options.fetch,
      }),
    );
  const compatible = () =>
    memo("compatible", () =>
      createOpenAICompatible({
        name: COMPATIBLE_PROVIDER,
        baseURL: options.llmBaseUrl ?? "",
        apiKey: options.llmApiKey,
        includeUsage: true,
        supportsStructuredOutputs: true,
        fetch: options.fetch,
      }),
    );

  function languageModel(provider: ProviderName, modelId: string): LanguageModelV3 {
    const apiKey = requireKey(provider, `${provider}:${modelId}`);
    const common = { apiKey, baseURL: baseUrlOf(provider), fetch: options.fetch };
    switch (provider) {
      // Chat Completions, not the Responses API: every OpenAI-compatible server speaks it.
      case "openai":
        return openai(apiKey, common.baseURL).chat(modelId);
      case "anthropic":
        return memo("anthropic", () => createAnthropic(common))(modelId);
      case "google":
        return google(`google:${modelId}`)(modelId);
      case "xai":
        return memo("xai", () => createXai(common)).chat(modelId);
      case "perplexity":
        return memo("perplexity", () => createPerplexity(common))(modelId);
      case "deepseek":
        return memo("deepseek", () => createDeepSeek(common))(modelId);
      case "groq":
        return memo("groq", () =>
          createOpenAICompatible({ ...common, name: "groq", includeUsage: true }),
        ).chatModel(modelId);
    }
  }

  return {
    hasCredentials: (provider: ProviderName) => keyOf(provider) !== undefined,
    usesCompatibleEndpoint: () => Boolean(options.llmBaseUrl),
    languageModel,

    /** A chat model on the LLM_BASE_URL endpoint. */
    compatibleLanguageModel: (modelId: string): LanguageModelV3 => compatible().chatModel(modelId),

    compatibleEmbeddingModel: (modelId: string): EmbeddingModelV3 =>
      compatible().embeddingModel(modelId),

    embeddingModel(provider: ProviderName, modelId: string): EmbeddingModelV3 {
      const what = `Embedding model ${provider}:${modelId}`;
      if (provider === "openai") {
        return openai(requireKey("openai", what), baseUrlOf("openai")).embedding(modelId);
      }
      if (provider === "google") return google(what).embedding(modelId);
      throw new ModelUnavailableError(`${what}: ${provider} offers no embedding model here`);
    },

    transcriptionModel(
      provider: ProviderName | typeof COMPATIBLE_PROVIDER,
      modelId: string,
      endpoint: { baseUrl?: string; apiKey?: string } = {},
    ): TranscriptionModelV3 {
      const what = `Transcription model ${provider}:${modelId}`;
      // A dedicated speech-to-text server (e.g. a local whisper) speaks the OpenAI audio API; it
      // gets only its own key, never a provider's. An empty key stops the SDK reading the env.
      if (endpoint.baseUrl) {
        return openai(endpoint.apiKey ?? "", endpoint.baseUrl, provider).transcription(modelId);
      }
      if (provider === "openai") {
        return openai(requireKey("openai", what), baseUrlOf("openai")).transcription(modelId);
      }
      if (provider === "groq") {
        return openai(requireKey("groq", what), baseUrlOf("groq"), "groq").transcription(modelId);
      }
      if (provider === "google") return google(what).transcription(modelId);
      throw new ModelUnavailableError(`${what}: ${provider} offers no speech-to-text model here`);
    },
  };
}
