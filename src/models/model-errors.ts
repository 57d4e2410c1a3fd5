/** Base class of the model layer's errors; messages are safe to show to an operator or client. */
export class ModelError extends Error {
  override name = "ModelError";
}

/** The model catalog overrides (MODELS_FILE) or a model spec string is malformed. */
export class ModelConfigError extends ModelError {
  override name = "ModelConfigError";
}

/** A model was asked for whose provider has no credentials and no offline stand-in exists. */
export class ModelUnavailableError extends ModelError {
  override name = "ModelUnavailableError";
}
