import { APICallError, RetryError } from "ai";
import { ModelError } from "./model-errors.ts";

/** A model call that failed, described without the provider's body, URL or key. */
export class ModelProviderError extends ModelError {
  override name = "ModelProviderError";
  constructor(
    message: string,
    /** The provider's HTTP status, when it answered with one. */
    readonly providerStatus: number | undefined,
    /** True when trying again later may succeed (rate limits, provider outages, timeouts). */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

function statusReason(status: number): string {
  if (status === 401 || status === 403) return "the provider refused the API key";
  if (status === 404) return "the provider does not know this model";
  if (status === 408 || status === 504) return "the provider timed out";
  if (status === 413) return "the prompt is too large for the provider";
  if (status === 429) return "the provider's rate limit or quota was reached";
  if (status >= 500) return "the provider had an internal error";
  return "the provider rejected the request";
}

/**
 * Turns whatever an AI SDK call threw into a ModelProviderError whose message names the model and
 * the provider status but none of the provider's response, which can echo keys or prompts.
 */
export function toModelProviderError(error: unknown, modelLabel: string): ModelProviderError {
  if (error instanceof ModelProviderError) return error;
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(cause) && cause.statusCode !== undefined) {
    return new ModelProviderError(
      `The model ${modelLabel} failed: ${statusReason(cause.statusCode)} (HTTP ${cause.statusCode})`,
      cause.statusCode,
      cause.isRetryable,
    );
  }
  // Aborts and timeouts arrive as DOMExceptions, recognised by name.
  const name = typeof cause === "object" && cause !== null && "name" in cause ? cause.name : "";
  if (name === "TimeoutError") {
    return new ModelProviderError(
      `The model ${modelLabel} did not answer in time`,
      undefined,
      true,
    );
  }
  if (name === "AbortError") {
    return new ModelProviderError(
      `The call to model ${modelLabel} was cancelled`,
      undefined,
      false,
    );
  }
  if (cause instanceof ModelError) {
    return new ModelProviderError(cause.message, undefined, false);
  }
  if (APICallError.isInstance(cause)) {
    return new ModelProviderError(`The model ${modelLabel} could not be reached`, undefined, true);
  }
  return new ModelProviderError(`The model ${modelLabel} failed`, undefined, false);
}
