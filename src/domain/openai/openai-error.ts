import { AppError, type ErrorType } from "../../lib/errors.ts";

/**
 * A refusal of the OpenAI-compatible API that names OpenAI's `param` and `code` (for example
 * `model_not_found`); its type still decides the status, as for every AppError.
 */
export class OpenAiError extends AppError {
  constructor(
    type: ErrorType,
    message: string,
    readonly param: string | null,
    readonly code: string | null,
  ) {
    super(type, message);
    this.name = "OpenAiError";
  }
}

export const modelNotFound = (model: string) =>
  new OpenAiError(
    "NOT_FOUND",
    `The model '${model}' does not exist or you do not have access to it.`,
    "model",
    "model_not_found",
  );

export const invalidParam = (param: string, message: string) =>
  new OpenAiError("INVALID_REQUEST", message, param, null);
