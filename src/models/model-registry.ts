import {
  AGENT_MODEL_NAMES,
  type AgentModelName,
  type ConcreteModelName,
  DEFAULT_MODEL_CATALOG,
  isConcreteModelName,
  PROVIDER_API_KEY_ENV,
  PROVIDER_NAMES,
  type ProviderName,
} from "./model-catalog.ts";
import { ModelConfigError, ModelUnavailableError } from "./model-errors.ts";
import {
  applyModelCatalogOverrides,
  type ModelCatalogOverrides,
  parseModelCatalogOverrides,
} from "./model-overrides.ts";
import {
  COMPATIBLE_PROVIDER,
  createPriceLookup,
  type ModelPrice,
  OFFLINE_MODEL_ID,
  OFFLINE_PROVIDER,
} from "./model-prices.ts";
import { MODEL_ROUTE_LONG_PROMPT_TOKENS, routeModel } from "./model-route.ts";
import type { EmbeddingModelV3, LanguageModelV3, TranscriptionModelV3 } from "./model-types.ts";
import { createOfflineResponder } from "./offline-responder.ts";
import { settlePromptSchema } from "./prompt-validation.ts";
import { createProviderFactory, type ProviderFactoryOptions } from "./provider-factory.ts";

export type ModelRegistryOptions = ProviderFactoryOptions & {
  /** Parsed MODELS_FILE content; validated again here so a bad file fails with its own message. */
  overrides?: ModelCatalogOverrides;
};

/** Who answers: a catalog provider, the LLM_BASE_URL endpoint, or the offline responder. */
type ResolvedProvider = ProviderName | typeof COMPATIBLE_PROVIDER | typeof OFFLINE_PROVIDER;

export type ResolvedLanguageModel = {
  /** The concrete catalog model that answers (what `model_route` picked, for a routed agent). */
  modelName: ConcreteModelName;
  /** The name the caller asked for, `model_route` included. */
  requestedModelName: AgentModelName;
  provider: ResolvedProvider;
  providerModelId: string;
  model: LanguageModelV3;
  /** Credits per million input and output tokens. */
  prices: ModelPrice;
  offline: boolean;
};

export type ModelDescription = {
  modelName: AgentModelName;
  provider: ResolvedProvider;
  providerModelId: string;
  prices: ModelPrice;
  offline: boolean;
  /** For `model_route` only: what short and long prompts are sent to right now. */
  route?: {
    shortPrompt: ConcreteModelName;
    longPrompt: ConcreteModelName;
    longPromptTokens: number;
  };
};

/** What a model is resolved for besides its name. */
export type ResolveHints = {
  /** The prompt's estimated tokens: `model_route` picks by it. */
  promptTokens?: number;
  /**
   * The answer is read by someone without a key (a visitor of the public chat, a messaging
   * channel's customer): the offline responder then leaves out how to configure a model.
   */
  publicAudience?: boolean;
};

/** The model that writes the answer: the catalog model, or the offline responder in its place. */
export function answeringModelName(resolved: Pick<ResolvedLanguageModel, "modelName" | "offline">) {
  return resolved.offline ? OFFLINE_MODEL_ID : resolved.modelName;
}

export type ModelSpec = { provider: ProviderName | typeof COMPATIBLE_PROVIDER; modelId: string };

/** Splits "provider:model" (the model id may itself contain colons). */
export function parseModelSpec(spec: string): ModelSpec {
  const separator = spec.indexOf(":");
  const provider = spec.slice(0, separator).trim();
  const modelId = spec.slice(separator + 1).trim();
  const known: readonly string[] = [...PROVIDER_NAMES, COMPATIBLE_PROVIDER];
  if (separator <= 0 || modelId === "" || !known.includes(provider)) {
    throw new ModelConfigError(
      `"${spec}" is not a model of the form provider:model with a provider among ${known.join(", ")} (e.g. openai:text-embedding-3-small)`,
    );
  }
  return { provider: provider as ModelSpec["provider"], modelId };
}

/** The registry every model call goes through: catalog + overrides + credentials → AI SDK models. */
export function createModelRegistry(options: ModelRegistryOptions) {
  settlePromptSchema();
  const catalog = options.overrides
    ? applyModelCatalogOverrides(
        DEFAULT_MODEL_CATALOG,
        parseModelCatalogOverrides(options.overrides),
      )
    : DEFAULT_MODEL_CATALOG;
  const providers = createProviderFactory(options);
  const priceOf = createPriceLookup(catalog);
  const compatible = Boolean(options.llmBaseUrl);
  const offlineResponders = new Map<ProviderName, LanguageModelV3>();
  const publicOfflineResponder = createOfflineResponder();

  const isReachable = (modelName: ConcreteModelName) =>
    compatible || providers.hasCredentials(catalog[modelName].provider);

  const offlineResponder = (provider: ProviderName) => {
    let responder = offlineResponders.get(provider);
    if (!responder) {
      responder = createOfflineResponder({
        configureHint: `set ${PROVIDER_API_KEY_ENV[provider]}, or LLM_BASE_URL for an OpenAI-compatible server`,
      });
      offlineResponders.set(provider, responder);
    }
    return responder;
  };

  /** The model for an agent's `modelName`; a provider without credentials gives the offline responder. */
  function resolveLanguageModel(
    requestedModelName: AgentModelName,
    hints: ResolveHints = {},
  ): ResolvedLanguageModel {
    if (!(AGENT_MODEL_NAMES as readonly string[]).includes(requestedModelName)) {
      throw new ModelConfigError(
        `Unknown model name "${requestedModelName}" (valid: ${AGENT_MODEL_NAMES.join(", ")})`,
      );
    }
    const modelName = isConcreteModelName(requestedModelName)
      ? requestedModelName
      : routeModel(hints.promptTokens, isReachable);
    const entry = catalog[modelName];
    const prices = { input: entry.inputCreditsPerMillion, output: entry.outputCreditsPerMillion };
    const base = { modelName, requestedModelName, providerModelId: entry.providerModelId, prices };
    if (compatible) {
      const model = providers.compatibleLanguageModel(entry.providerModelId);
      return { ...base, provider: COMPATIBLE_PROVIDER, model, offline: false };
    }
    if (providers.hasCredentials(entry.provider)) {
      const model = providers.languageModel(entry.provider, entry.providerModelId);
      return { ...base, provider: entry.provider, model, offline: false };
    }
    return {
      modelName,
      requestedModelName,
      provider: OFFLINE_PROVIDER,
      providerModelId: OFFLINE_MODEL_ID,
      model: hints.publicAudience ? publicOfflineResponder : offlineResponder(entry.provider),
      prices: { input: 0, output: 0 },
      offline: true,
    };
  }

  /** An embedding model from "provider:model"; LLM_BASE_URL, when set, serves every embedding model. */
  function resolveEmbeddingModel(spec: string): EmbeddingModelV3 {
    const { provider, modelId } = parseModelSpec(spec);
    if (compatible) return providers.compatibleEmbeddingModel(modelId);
    if (provider === COMPATIBLE_PROVIDER) {
      throw new ModelUnavailableError(
        `Embedding model ${spec} needs LLM_BASE_URL, which is not set`,
      );
    }
    return providers.embeddingModel(provider, modelId);
  }

  /**
   * A speech-to-text model from "provider:model". `baseUrl` points at a dedicated OpenAI-compatible
   * audio server (its own `apiKey`, if any); LLM_BASE_URL is not used, since most local chat
   * servers have no /audio/transcriptions.
   */
  function resolveTranscriptionModel(
    spec: string,
    endpoint: { baseUrl?: string; apiKey?: string } = {},
  ): TranscriptionModelV3 {
    const { provider, modelId } = parseModelSpec(spec);
    if (provider === COMPATIBLE_PROVIDER) {
      const baseUrl = endpoint.baseUrl ?? options.llmBaseUrl;
      if (!baseUrl) {
        throw new ModelUnavailableError(
          `Transcription model ${spec} needs a base URL, none is set`,
        );
      }
      const apiKey = endpoint.baseUrl ? endpoint.apiKey : (endpoint.apiKey ?? options.llmApiKey);
      return providers.transcriptionModel(provider, modelId, { baseUrl, apiKey });
    }
    return providers.transcriptionModel(provider, modelId, endpoint);
  }

  /** Every agent model name with what it resolves to now (for an ops endpoint and the docs). */
  function describe(): ModelDescription[] {
    return AGENT_MODEL_NAMES.map((modelName) => {
      const resolved = resolveLanguageModel(modelName);
      const description: ModelDescription = {
        modelName,
        provider: resolved.provider,
        providerModelId: resolved.providerModelId,
        prices: resolved.prices,
        offline: resolved.offline,
      };
      if (modelName === "model_route") {
        description.route = {
          shortPrompt: resolved.modelName,
          longPrompt: routeModel(MODEL_ROUTE_LONG_PROMPT_TOKENS, isReachable),
          longPromptTokens: MODEL_ROUTE_LONG_PROMPT_TOKENS,
        };
      }
      return description;
    });
  }

  return {
    resolveLanguageModel,
    resolveEmbeddingModel,
    resolveTranscriptionModel,
    /** Credits per million tokens for a provider model (aliases such as azure → openai apply). */
    priceOf,
    describe,
    /** Whether a provider has credentials (LLM_BASE_URL aside). */
    hasCredentials: (provider: ProviderName) => providers.hasCredentials(provider),
    /** The catalog after MODELS_FILE overrides. */
    catalog,
  };
}

export type ModelRegistry = ReturnType<typeof createModelRegistry>;
