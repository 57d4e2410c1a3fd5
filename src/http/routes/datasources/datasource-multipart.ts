import type { FastifyRequest } from "fastify";
import {
  type FileDatasourceInput,
  fileDatasourceFields,
} from "../../../domain/knowledge/datasource-request.ts";
import { UNSCHEDULABLE_MESSAGE } from "../../../domain/knowledge/datasource-service.ts";
import { invalid } from "../../../lib/errors.ts";
import { readMultipartForm } from "../../plugins/multipart-form.ts";

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
  const parsed = fileDatasourceFields.safeParse(fields);
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
  return { ...parsed.data, file };
}
