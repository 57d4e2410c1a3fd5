import { generateText, type ModelMessage, stepCountIs, streamText, tool, zodSchema } from "ai";
import { z } from "zod";
import type { PromptPassage } from "../../models/knowledge-prompt.ts";
import { type ModelProviderError, toModelProviderError } from "../../models/model-failure.ts";
import type { ResolvedLanguageModel } from "../../models/model-registry.ts";
import { quotedPassagesOf } from "../../models/offline-responder.ts";
import { estimateTokens } from "../../models/token-estimate.ts";
import { REQUEST_HUMAN_TOOL } from "./query-prompt.ts";

export type ModelTurnInput = {
  resolved: ResolvedLanguageModel;
  system: string;
  messages: ModelMessage[];
  temperature: number;
  /** Bounds the whole call, retries and tool step included. */
  timeoutMs: number;
  /** Retries of the initial request; a stream that has started is never retried. */
  maxRetries: number;
  /** Most tokens the model may write per step: what bounds the credits reserved for a turn. */
  maxOutputTokens: number;
  /** The client went away: stop the model and keep what it wrote. */
  signal?: AbortSignal;
  /** Called with each text fragment, in order; awaited, so a slow reader slows the model. */
  onText?: (fragment: string) => Promise<void> | void;
  /** Further AI SDK call settings (an agent's `additionalConfig`: topP, seed, providerOptions…). */
  extra?: Record<string, unknown>;
};

export type ModelTurnResult = {
  text: string;
  /** The model called the request_human tool. */
  requestedHuman: boolean;
  inputTokens: number;
  outputTokens: number;
  /** No usage came from the provider (stopped early): counts are estimates. */
  usageEstimated: boolean;
  /** The passages the offline responder quoted; absent for other models. */
  quoted?: PromptPassage[];
  /** "disconnected": the client left; "failed": the provider failed after some text. */
  outcome: "complete" | "disconnected" | "failed";
  error?: ModelProviderError;
};

function estimatedInput(system: string, messages: ModelMessage[]): number {
  const text = messages
    .map((message) =>
      typeof message.content === "string" ? message.content : JSON.stringify(message.content),
    )
    .join("\n");
  return estimateTokens(system) + estimateTokens(text) + 4 * (messages.length + 1);
}

/**
 * The handover tool's input, converted to JSON Schema once: a schema made per call would be
 * converted again for every query.
 */
const handoverInput = zodSchema(z.object({ reason: z.string().optional() }));

function handoverTools(onHandover: () => void) {
  return {
    [REQUEST_HUMAN_TOOL]: tool({
      description:
        "Hand the conversation to a person of the team when the customer asks for one or you cannot help.",
      inputSchema: handoverInput,
      execute: async () => {
        onHandover();
        return { handedOver: true, note: "A member of the team has been notified." };
      },
    }),
  };
}

function callSettings(input: ModelTurnInput, onHandover: () => void) {
  return {
    ...input.extra,
    model: input.resolved.model,
    system: input.system === "" ? undefined : input.system,
    messages: input.messages,
    temperature: input.temperature,
    maxOutputTokens: input.maxOutputTokens,
    maxRetries: input.maxRetries,
    timeout: { totalMs: input.timeoutMs },
    // The offline responder calls no tools: offered one, it would only warn that it cannot.
    ...(input.resolved.offline ? {} : { tools: handoverTools(onHandover) }),
    // The second step lets the model tell the customer about the handover.
    stopWhen: stepCountIs(2),
  };
}

/**
 * One answer from the model. With `onText` or `signal` it is streamed: provider failures before
 * any text throw a ModelProviderError; after some text they end the turn with outcome "failed" so
 * the caller can keep the partial answer the client already saw. Without either, one
 * non-streaming call (less work per query than a stream nobody reads); failures throw.
 */
export async function runModelTurn(input: ModelTurnInput): Promise<ModelTurnResult> {
  return input.onText || input.signal ? streamTurn(input) : generateTurn(input);
}

async function generateTurn(input: ModelTurnInput): Promise<ModelTurnResult> {
  let requestedHuman = false;
  try {
    const result = await generateText(
      callSettings(input, () => {
        requestedHuman = true;
      }),
    );
    // As when streaming, the answer is the text of every step (before and after a handover).
    const text = result.steps.map((step) => step.text).join("");
    const { inputTokens, outputTokens } = result.totalUsage;
    const known = inputTokens !== undefined;
    const quoted = quotedPassagesOf(result.providerMetadata);
    return {
      text,
      requestedHuman,
      ...(quoted ? { quoted } : {}),
      inputTokens: known ? inputTokens : estimatedInput(input.system, input.messages),
      outputTokens: known ? (outputTokens ?? 0) : estimateTokens(text),
      usageEstimated: !known,
      outcome: "complete",
    };
  } catch (error) {
    throw toModelProviderError(error, input.resolved.requestedModelName);
  }
}

async function streamTurn(input: ModelTurnInput): Promise<ModelTurnResult> {
  const { resolved } = input;
  let requestedHuman = false;
  const result = streamText({
    ...callSettings(input, () => {
      requestedHuman = true;
    }),
    abortSignal: input.signal,
    // Failures are read from the stream below; the default would print them, provider body included.
    onError: () => {},
  });

  let text = "";
  let failure: unknown;
  let aborted = false;
  let usage: { inputTokens?: number; outputTokens?: number } | undefined;
  let quoted: PromptPassage[] | null = null;
  try {
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") {
        text += part.text;
        await input.onText?.(part.text);
      } else if (part.type === "error") {
        failure = part.error;
      } else if (part.type === "abort") {
        aborted = true;
      } else if (part.type === "finish-step") {
        quoted ??= quotedPassagesOf(part.providerMetadata);
      } else if (part.type === "finish") {
        usage = part.totalUsage;
      }
    }
  } catch (error) {
    // A stream cut by an abort can also end by throwing instead of with an abort part.
    failure = error;
  }

  const disconnected = input.signal?.aborted === true;
  const label = resolved.requestedModelName;
  if (!disconnected && (failure !== undefined || aborted)) {
    // An abort we did not ask for is the timeout.
    const error = toModelProviderError(
      failure ?? Object.assign(new Error("timeout"), { name: "TimeoutError" }),
      label,
    );
    if (text === "") throw error;
    return finish("failed", error);
  }
  return finish(disconnected ? "disconnected" : "complete");

  function finish(outcome: ModelTurnResult["outcome"], error?: ModelProviderError) {
    const known = outcome === "complete" && usage?.inputTokens !== undefined;
    return {
      text,
      requestedHuman,
      ...(quoted ? { quoted } : {}),
      inputTokens: known ? (usage?.inputTokens ?? 0) : estimatedInput(input.system, input.messages),
      outputTokens: known ? (usage?.outputTokens ?? 0) : estimateTokens(text),
      usageEstimated: !known,
      outcome,
      ...(error ? { error } : {}),
    };
  }
}
