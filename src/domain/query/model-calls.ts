import { generateText } from "ai";
import { toModelProviderError } from "../../models/model-failure.ts";
import type { ResolvedLanguageModel } from "../../models/model-registry.ts";
import { estimateTokens } from "../../models/token-estimate.ts";
import type { SuperRetrievalSettings } from "../agents/retrieval-evaluation-config.ts";
import type { Billing } from "../billing/billing-port.ts";

/** A model call made for an answer besides the answer itself: metered and charged on its own. */
export type MeteredCall = {
  /** The consumption event's feature. */
  feature: "super_retrieval" | "model_comparison";
  /** What the call was for, kept in the event's metadata. */
  step: "generate_queries" | "evaluate" | "compare";
  resolved: ResolvedLanguageModel;
  inputTokens: number;
  outputTokens: number;
  usageEstimated: boolean;
};

/** How one model is called: its temperature, its output bound, and the agent's extra settings. */
export type CallTuning = {
  temperature: number;
  maxOutputTokens: number;
  /** The AI SDK call settings of `additionalConfig` (topP, seed, providerOptions…). */
  extra: Record<string, unknown>;
};

/**
 * The tuning of one model of a super retrieval agent: `modelTemperatures` and `modelMaxTokens`
 * keyed by its name, else the given defaults; `additionalConfig`'s call settings always.
 */
export function tuningFor(
  settings: SuperRetrievalSettings,
  resolved: ResolvedLanguageModel,
  defaults: { temperature: number; maxOutputTokens: number },
): CallTuning {
  const name = resolved.requestedModelName;
  const { providerOptions, topP, topK, presencePenalty, frequencyPenalty, seed, stopSequences } =
    settings.additionalConfig;
  const extra = Object.fromEntries(
    Object.entries({
      topP,
      topK,
      presencePenalty,
      frequencyPenalty,
      seed,
      stopSequences,
      providerOptions,
    }).filter(([, value]) => value !== undefined),
  );
  return {
    temperature: settings.modelTemperatures[name] ?? defaults.temperature,
    maxOutputTokens: settings.modelMaxTokens[name] ?? defaults.maxOutputTokens,
    extra,
  };
}

/** One plain-text model call (no tools, not streamed); provider failures throw ModelProviderError. */
export async function callModel(input: {
  resolved: ResolvedLanguageModel;
  system: string;
  prompt: string;
  tuning: CallTuning;
  timeoutMs: number;
  maxRetries: number;
  signal?: AbortSignal;
}): Promise<{ text: string; inputTokens: number; outputTokens: number; usageEstimated: boolean }> {
  try {
    const result = await generateText({
      ...input.tuning.extra,
      model: input.resolved.model,
      system: input.system,
      prompt: input.prompt,
      temperature: input.tuning.temperature,
      maxOutputTokens: input.tuning.maxOutputTokens,
      maxRetries: input.maxRetries,
      timeout: { totalMs: input.timeoutMs },
      abortSignal: input.signal,
    });
    const { inputTokens, outputTokens } = result.usage;
    const known = inputTokens !== undefined;
    return {
      text: result.text,
      inputTokens: known ? inputTokens : estimateTokens(input.system + input.prompt) + 8,
      outputTokens: known ? (outputTokens ?? 0) : estimateTokens(result.text),
      usageEstimated: !known,
    };
  } catch (error) {
    throw toModelProviderError(error, input.resolved.requestedModelName);
  }
}

/**
 * Charges each extra call of an answer as its own consumption event, after the answer's own
 * charge. A charge that fails is reported and does not undo the answer the customer has.
 */
export async function chargeModelCalls(
  billing: Pick<Billing, "charge">,
  calls: readonly MeteredCall[],
  owner: {
    organizationId: string;
    apiKeyId?: string | null;
    agentId: string;
    conversationId: string | null;
    messageId: string | null;
    onError(error: unknown): void;
  },
): Promise<void> {
  for (const call of calls) {
    await billing
      .charge({
        organizationId: owner.organizationId,
        apiKeyId: owner.apiKeyId ?? null,
        agentId: owner.agentId,
        feature: call.feature,
        provider: call.resolved.provider,
        modelName: call.resolved.providerModelId,
        inputTokens: call.inputTokens,
        outputTokens: call.outputTokens,
        conversationId: owner.conversationId,
        messageId: owner.messageId,
        metadata: {
          modelName: call.resolved.modelName,
          step: call.step,
          ...(call.usageEstimated ? { usageEstimated: true } : {}),
        },
      })
      .catch(owner.onError);
  }
}
