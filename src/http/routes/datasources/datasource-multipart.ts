import type { FastifyRequest } from "fastify";
import { z } from "zod";
import {
  type FileDatasourceInput,
  UNSCHEDULABLE_MESSAGE,
} from "../../../domain/knowledge/datasource-service.ts";
import { invalid } from "../../../lib/errors.ts";
import { readMultipartForm } from "../../plugins/multipart-form.ts";

/** The text fields of the multipart form of POST /api/datasources. */
export const fileFormFields = z.object({
  type: z.literal("file", { error: 'type must be "file" for a multipart upload' }),
  datastoreId: z.string().min(1).max(64),
  fileName: z.string().trim().min(1).max(255).optional(),
  custom_id: z.string().min(1).max(255).optional(),
});

export type UploadLimits = { fileSize: number };

/**
 * Reads the multipart form: the `file` part into memory (413 past the size cap) and the text
 * fields, validated like any body.
 */
export async function readFileForm(
  request: FastifyRequest,
  limits: UploadLimits,
): Promise<FileDatasourceInput> {
  const { fields, files } = await readMultipartForm(request, {
    fileSize: limits.fileSize,
    files: 1,
    fields: 20,
    fieldSize: 64 * 1024,
  });
  const upload = files.find((part) => part.field === "file");
  const file = upload && {
    bytes: upload.bytes,
    declaredMime: upload.mimetype,
    fileName: upload.fileName,
  };
  const parsed = fileFormFields.safeParse(fields);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      path: ["body", ...issue.path.map(String)].join("."),
      message: issue.message,
    }));
    throw invalid(`Invalid request: ${details[0]!.path} ${details[0]!.message}`, details);
  }
  if (fields.syncSchedule !== undefined) {
    throw invalid(UNSCHEDULABLE_MESSAGE, [{ path: "body.syncSchedule", message: "not allowed" }]);
  }
  if (!file)
    throw invalid("Invalid request: body.file is required", [
      { path: "body.file", message: "is required" },
    ]);
  return {
    datastoreId: parsed.data.datastoreId,
    ...(parsed.data.fileName ? { fileName: parsed.data.fileName } : {}),
    ...(parsed.data.custom_id ? { customId: parsed.data.custom_id } : {}),
    file,
  };
}
