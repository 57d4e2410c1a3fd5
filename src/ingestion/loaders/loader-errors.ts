import { ACCEPTED_MIME_TYPES } from "./loader-types.ts";

/** A document that cannot be turned into text: corrupt, encrypted, too large or a zip bomb. */
export class DocumentLoadError extends Error {
  override readonly name = "DocumentLoadError";
}

/** An upload whose content is not one of the accepted types (executables, images, archives...). */
export class UnsupportedFileTypeError extends Error {
  override readonly name = "UnsupportedFileTypeError";
  readonly acceptedTypes: readonly string[] = ACCEPTED_MIME_TYPES;

  constructor(what: string) {
    super(`${what}. Accepted types: ${ACCEPTED_MIME_TYPES.join(", ")}.`);
  }
}
