import type { FastifyRequest } from "fastify";
import { AppError, invalid } from "../../lib/errors.ts";
import { isStorable, UNSTORABLE_TEXT_MESSAGE } from "./json-body.ts";

type FormFile = {
  field: string;
  bytes: Buffer;
  mimetype: string;
  fileName: string | undefined;
};

/** A multipart/form-data body read whole: its text fields by name and its files in order. */
export type MultipartForm = { fields: Record<string, string>; files: FormFile[] };

export type FormLimits = {
  /** Bytes of one file; over it the plugin throws FST_REQ_FILE_TOO_LARGE (413). */
  fileSize: number;
  files: number;
  fields: number;
  /** Bytes of one text field. */
  fieldSize: number;
  parts?: number;
};

export const MALFORMED_MULTIPART_MESSAGE =
  "The multipart/form-data body could not be read: check the boundary of its Content-Type " +
  "and that the body is complete";

/**
 * Reads a whole multipart/form-data body into memory, within `limits`. The multipart plugin's own
 * refusals carry a code and a status (limits, a field named like a prototype property) and go on
 * to the error table as they are; its parser (busboy) fails without either, on a Content-Type
 * without a usable boundary, bytes that are not a form, or a part cut short: that is the
 * client's malformed body, 400, on every endpoint that reads a form through here.
 */
export async function readMultipartForm(
  request: FastifyRequest,
  limits: FormLimits,
): Promise<MultipartForm> {
  const form: MultipartForm = { fields: {}, files: [] };
  try {
    for await (const part of request.parts({ limits })) {
      if (part.type === "file") {
        form.files.push({
          field: part.fieldname,
          bytes: await part.toBuffer(),
          mimetype: part.mimetype,
          fileName: part.filename || undefined,
        });
      } else if (typeof part.value === "string") {
        form.fields[part.fieldname] = part.value;
      } else {
        // The plugin parses a part sent as application/json; no form here takes JSON fields.
        throw invalid(`The form field ${part.fieldname} must be plain text, not JSON`);
      }
    }
  } catch (error) {
    const coded = typeof (error as { statusCode?: unknown }).statusCode === "number";
    throw error instanceof AppError || coded ? error : invalid(MALFORMED_MULTIPART_MESSAGE);
  }
  // A NUL byte reaches a field as it is (the JSON parser refuses its escape in JSON bodies).
  const texts = [
    ...Object.entries(form.fields).flat(),
    ...form.files.flatMap((file) => [file.field, file.fileName ?? ""]),
  ];
  if (!texts.every(isStorable)) throw invalid(UNSTORABLE_TEXT_MESSAGE);
  return form;
}
