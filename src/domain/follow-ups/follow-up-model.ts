import { PROVIDER_API_KEY_ENV, type ProviderName } from "../../models/model-catalog.ts";
import { ModelConfigError } from "../../models/model-errors.ts";
import {
  COMPATIBLE_PROVIDER,
  OFFLINE_MODEL_ID,
  OFFLINE_PROVIDER,
} from "../../models/model-prices.ts";
import { type ModelRegistry, parseModelSpec } from "../../models/model-registry.ts";
import type { LanguageModelV3 } from "../../models/model-types.ts";
import { createOfflineResponder } from "../../models/offline-responder.ts";
import {
  createProviderFactory,
  type ProviderFactoryOptions,
} from "../../models/provider-factory.ts";

/** The fixed model of the follow-up agent, resolved once at boot. */
export type FollowUpModel = {
  /** FOLLOW_UP_MODEL as configured, e.g. "openai:gpt-4o-mini": what responses report. */
  spec: string;
  model: LanguageModelV3;
  provider: string;
  providerModelId: string;
  /** No credentials: the offline responder writes, and structured output is unavailable. */
  offline: boolean;
};

/**
 * Resolves FOLLOW_UP_MODEL ("provider:model"). A catalog model goes through the registry, so
 * LLM_BASE_URL, MODELS_FILE and the offline fallback apply exactly as for agents; any other model
 * of a known provider is built the same way from the provider's key.
 */
export function resolveFollowUpModel(
  spec: string,
  registry: Pick<ModelRegistry, "catalog" | "resolveLanguageModel">,
  providerOptions: ProviderFactoryOptions,
): FollowUpModel {
  let parsed: ReturnType<typeof parseModelSpec>;
  try {
    parsed = parseModelSpec(spec);
  } catch (error) {
    throw new ModelConfigError(`FOLLOW_UP_MODEL: ${(error as Error).message}`);
  }
  const { provider, modelId } = parsed;
  const entry = Object.entries(registry.catalog).find(
    ([, model]) => model.provider === provider && model.providerModelId === modelId,
  );
  if (entry) {
    const resolved = registry.resolveLanguageModel(entry[0] as keyof typeof registry.catalog);
    return {
      spec,
      model: resolved.model,
      provider: resolved.provider,
      providerModelId: resolved.providerModelId,
      offline: resolved.offline,
    };
  }
  const providers = createProviderFactory(providerOptions);
  if (providers.usesCompatibleEndpoint()) {
    const model = providers.compatibleLanguageModel(modelId);
    return { spec, model, provider: COMPATIBLE_PROVIDER, providerModelId: modelId, offline: false };
  }
  if (provider === COMPATIBLE_PROVIDER) {
    throw new ModelConfigError(`FOLLOW_UP_MODEL: ${spec} needs LLM_BASE_URL, which is not set`);
  }
  if (providers.hasCredentials(provider)) {
    const model = providers.languageModel(provider, modelId);
    return { spec, model, provider, providerModelId: modelId, offline: false };
  }
  return {
    spec,
    model: createOfflineResponder({
      configureHint: `set ${PROVIDER_API_KEY_ENV[provider as ProviderName]}, or LLM_BASE_URL for an OpenAI-compatible server`,
    }),
    provider: OFFLINE_PROVIDER,
    providerModelId: OFFLINE_MODEL_ID,
    offline: true,
  };
}
