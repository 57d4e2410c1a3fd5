import type { FastifyRequest } from "fastify";
import { AppError, invalid } from "../../../lib/errors.ts";

export type AudioUpload = { agentId: string | undefined; file: Buffer | undefined };

/** Room for the multipart boundaries and the agentId field around a file at the cap. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MAX_FIELD_BYTES = 1024;

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`
    : `${Math.round((bytes / 1024) * 10) / 10} KiB`;

function uploadError(error: unknown, maxBytes: number): Error {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") {
    return new AppError(
      "PAYLOAD_TOO_LARGE",
      `The audio file is larger than ${formatSize(maxBytes)}`,
    );
  }
  if (code === "FST_FILES_LIMIT") return invalid("Send exactly one audio file, in the file field");
  if (code === "FST_FIELDS_LIMIT" || code === "FST_PARTS_LIMIT") {
    return invalid("The form has too many fields; send only file and agentId");
  }
  // Busboy's own errors (a bad boundary, a truncated body) carry no code: the body is malformed.
  return invalid("The multipart/form-data body could not be read");
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
      "Send multipart/form-data with a file (audio/wav or audio/webm) and an agentId field",
    );
  }
  const declared = Number(request.headers["content-length"]);
  if (declared > maxBytes + FORM_OVERHEAD_BYTES) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `The audio file is larger than ${formatSize(maxBytes)}`,
    );
  }
  const upload: AudioUpload = { agentId: undefined, file: undefined };
  try {
    const parts = request.parts({
      limits: { fileSize: maxBytes, files: 1, fields: 8, parts: 9, fieldSize: MAX_FIELD_BYTES },
    });
    for await (const part of parts) {
      if (part.type === "file") {
        // Drained either way; a file under another name is not the audio the spec asks for.
        const bytes = await part.toBuffer();
        if (part.fieldname === "file") upload.file = bytes;
      } else if (part.fieldname === "agentId" && typeof part.value === "string") {
        upload.agentId = part.value;
      }
    }
  } catch (error) {
    throw uploadError(error, maxBytes);
  }
  return upload;
}
