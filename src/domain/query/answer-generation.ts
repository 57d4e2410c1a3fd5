import type { AgentModelName } from "../../models/model-catalog.ts";
import { ModelProviderError } from "../../models/model-failure.ts";
import type { ResolvedLanguageModel } from "../../models/model-registry.ts";
import type { SuperRetrievalSettings } from "../agents/retrieval-evaluation-config.ts";
import { type MeteredCall, tuningFor } from "./model-calls.ts";
import { type ModelTurnInput, type ModelTurnResult, runModelTurn } from "./model-turn.ts";

/** One comparison model's answer to the same prompt, or why it has none. */
export type ComparisonAnswer = {
  model: AgentModelName;
  answer?: string;
  usage?: { promptTokens: number; completionTokens: number; totalTokens: number; cost: number };
  error?: string;
};

/** A model that failed before the answering one took over. */
export type FailedModel = { model: AgentModelName; error: string };

/** One model turn's input, with the models to try in place of the one that answers. */
export type GenerationInput = Omit<ModelTurnInput, "resolved" | "extra"> & {
  /** The answering model first, then the fallbacks to try in order. */
  candidates: readonly ResolvedLanguageModel[];
  comparisons: readonly ResolvedLanguageModel[];
  /** Present for super retrieval agents: their per-model temperatures, max tokens, extras. */
  settings: SuperRetrievalSettings | null;
};

export type GenerationResult = {
  turn: ModelTurnResult;
  resolved: ResolvedLanguageModel;
  failedModels: FailedModel[];
  comparisons: ComparisonAnswer[];
  comparisonCalls: MeteredCall[];
};

const roundCredits = (value: number) => Math.round(value * 1e6) / 1e6;

function turnFor(input: GenerationInput, resolved: ResolvedLanguageModel, stream: boolean) {
  const defaults = { temperature: input.temperature, maxOutputTokens: input.maxOutputTokens };
  const tuning = input.settings ? tuningFor(input.settings, resolved, defaults) : null;
  return runModelTurn({
    resolved,
    system: input.system,
    messages: input.messages,
    temperature: tuning?.temperature ?? input.temperature,
    timeoutMs: input.timeoutMs,
    maxRetries: input.maxRetries,
    maxOutputTokens: tuning?.maxOutputTokens ?? input.maxOutputTokens,
    ...(tuning && Object.keys(tuning.extra).length > 0 ? { extra: tuning.extra } : {}),
    signal: input.signal,
    ...(stream ? { onText: input.onText } : {}),
  });
}

async function compare(
  input: GenerationInput,
  resolved: ResolvedLanguageModel,
): Promise<{ answer: ComparisonAnswer; call?: MeteredCall }> {
  const model = resolved.requestedModelName;
  if (resolved.offline) {
    return { answer: { model, error: "No provider key is configured for this model" } };
  }
  try {
    const turn = await turnFor(input, resolved, false);
    const { prices } = resolved;
    return {
      answer: {
        model,
        answer: turn.text,
        usage: {
          promptTokens: turn.inputTokens,
          completionTokens: turn.outputTokens,
          totalTokens: turn.inputTokens + turn.outputTokens,
          cost: roundCredits(
            (turn.inputTokens * prices.input + turn.outputTokens * prices.output) / 1e6,
          ),
        },
        ...(turn.error ? { error: turn.error.message } : {}),
      },
      call: {
        feature: "model_comparison",
        step: "compare",
        resolved,
        inputTokens: turn.inputTokens,
        outputTokens: turn.outputTokens,
        usageEstimated: turn.usageEstimated,
      },
    };
  } catch (error) {
    if (!(error instanceof ModelProviderError)) throw error;
    return { answer: { model, error: error.message } };
  }
}

/**
 * The answer of a turn: the first candidate that does not fail before its first token answers
 * (a failure after some text was streamed ends the turn, as without fallbacks), while the
 * comparison models answer the same prompt alongside, never streamed. When every candidate
 * fails, the first one's error is thrown.
 */
export async function generateAnswer(input: GenerationInput): Promise<GenerationResult> {
  const comparing = Promise.all(input.comparisons.map((resolved) => compare(input, resolved)));
  // A failed comparison is a result; the await below must not see an unhandled rejection first.
  comparing.catch(() => {});
  const failedModels: FailedModel[] = [];
  let firstError: ModelProviderError | undefined;
  for (const resolved of input.candidates) {
    try {
      const turn = await turnFor(input, resolved, true);
      const compared = await comparing;
      return {
        turn,
        resolved,
        failedModels,
        comparisons: compared.map((entry) => entry.answer),
        comparisonCalls: compared.flatMap((entry) => (entry.call ? [entry.call] : [])),
      };
    } catch (error) {
      if (!(error instanceof ModelProviderError) || input.signal?.aborted) throw error;
      firstError ??= error;
      failedModels.push({ model: resolved.requestedModelName, error: error.message });
    }
  }
  await comparing;
  throw firstError ?? new ModelProviderError("No model could answer", undefined, false);
}
