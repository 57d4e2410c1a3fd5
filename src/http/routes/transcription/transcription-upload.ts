import type { FastifyRequest } from "fastify";
import { audioTooLarge } from "../../../domain/transcription/transcription-service.ts";
import { invalid } from "../../../lib/errors.ts";
import { readMultipartForm } from "../../plugins/multipart-form.ts";

export type AudioUpload = { agentId: string | undefined; file: Buffer | undefined };

/** Room for the multipart boundaries and the agentId field around a file at the cap. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MAX_FIELD_BYTES = 1024;

/** This endpoint's words for the multipart plugin's limits; other errors stay as they are. */
function uploadError(error: unknown, maxBytes: number): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") {
    return audioTooLarge(maxBytes);
  }
  if (code === "FST_FILES_LIMIT") return invalid("Send exactly one audio file, in the file field");
  if (code === "FST_FIELDS_LIMIT" || code === "FST_PARTS_LIMIT") {
    return invalid("The form has too many fields; send only file and agentId");
  }
  return error;
}

/**
 * Reads `file` and `agentId` from a multipart/form-data body in whatever order they come,
 * holding at most `maxBytes` of audio in memory: a declared or streamed body over the cap is
 * refused with 413 before or while it arrives.
 */
export async function readAudioUpload(
  request: FastifyRequest,
  maxBytes: number,
): Promise<AudioUpload> {
  if (!request.isMultipart()) {
    throw invalid(
      "Send multipart/form-data with a file (audio/wav, audio/webm or audio/ogg) and an agentId field",
    );
  }
  const declared = Number(request.headers["content-length"]);
  if (declared > maxBytes + FORM_OVERHEAD_BYTES) {
    throw audioTooLarge(maxBytes);
  }
  try {
    const form = await readMultipartForm(request, {
      fileSize: maxBytes,
      files: 1,
      fields: 8,
      parts: 9,
      fieldSize: MAX_FIELD_BYTES,
    });
    // A file under another name is not the audio the spec asks for.
    const audio = form.files.find((part) => part.field === "file");
    return { agentId: form.fields.agentId, file: audio?.bytes };
  } catch (error) {
    throw uploadError(error, maxBytes);
  }
}
