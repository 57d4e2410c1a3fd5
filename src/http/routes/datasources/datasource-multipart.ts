import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { FileDatasourceInput } from "../../../domain/knowledge/datasource-service.ts";
import { invalid } from "../../../lib/errors.ts";

/** The text fields of the multipart form of POST /api/datasources. */
export const fileFormFields = z.object({
  type: z.literal("file", { error: 'type must be "file" for a multipart upload' }),
  datastoreId: z.string().min(1).max(64),
  fileName: z.string().trim().min(1).max(255).optional(),
  custom_id: z.string().min(1).max(255).optional(),
});

export type UploadLimits = { fileSize: number };

/**
 * Reads the multipart form: the `file` part into memory (the multipart plugin refuses it with
 * 413 past the size cap) and the text fields, validated like any body.
 */
export async function readFileForm(
  request: FastifyRequest,
  limits: UploadLimits,
): Promise<FileDatasourceInput> {
  const fields: Record<string, string> = {};
  let file: FileDatasourceInput["file"] | undefined;
  for await (const part of request.parts({
    limits: { fileSize: limits.fileSize, files: 1, fields: 20, fieldSize: 64 * 1024 },
  })) {
    if (part.type === "file") {
      const bytes = await part.toBuffer();
      if (part.fieldname === "file") {
        file = { bytes, declaredMime: part.mimetype, fileName: part.filename || undefined };
      }
      continue;
    }
    fields[part.fieldname] = typeof part.value === "string" ? part.value : String(part.value);
  }
  const parsed = fileFormFields.safeParse(fields);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      path: ["body", ...issue.path.map(String)].join("."),
      message: issue.message,
    }));
    throw invalid(`Invalid request: ${details[0]!.path} ${details[0]!.message}`, details);
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
