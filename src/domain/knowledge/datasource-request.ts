import { z } from "zod";
import { DATASOURCE_STATUSES, SYNC_SCHEDULES } from "../../db/schema/index.ts";

const httpUrl = z
  .string()
  .trim()
  .max(2_048)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "must be an absolute http(s) URL",
  });

/** A datasource's re-sync schedule (hourly, daily, weekly). */
const syncSchedules = z.enum(SYNC_SCHEDULES, {
  error: "syncSchedule must be hourly, daily, weekly or null",
});

const syncSchedule = syncSchedules
  .nullable()
  .describe(
    "Re-sync on a schedule (web_page and web_site only; a site's pages follow it); null: only when asked",
  );

/** The JSON form of POST /api/datasources (web pages and web sites). */
export const webDatasourceBody = z.object({
  datastoreId: z.string().min(1).max(64),
  type: z.enum(["web_page", "web_site"], {
    error: "type must be web_page or web_site (upload a file as multipart/form-data)",
  }),
  name: z.string().trim().min(1).max(500).optional(),
  custom_id: z.string().min(1).max(255).optional().describe("Extension in the JSON form"),
  syncSchedule: syncSchedule.optional(),
  config: z.object({ source_url: httpUrl.optional(), sitemap: httpUrl.optional() }),
});

/**
 * The JSON form of POST /api/datasources as the domain reads it: the body validated, its
 * `custom_id` (extension) renamed to `customId`, absent when not given.
 */
export const webDatasourceInput = webDatasourceBody.transform(
  ({ custom_id: customId, ...rest }) => ({ ...rest, ...(customId ? { customId } : {}) }),
);

export type WebDatasourceInput = z.output<typeof webDatasourceInput>;

/** PATCH /api/datasources/{id}: the settings a datasource can change. */
export const updateDatasourceBody = z.object({ syncSchedule });

/** The text fields of the multipart form of POST /api/datasources. */
export const fileFormFields = z.object({
  type: z.literal("file", { error: 'type must be "file" for a multipart upload' }),
  datastoreId: z.string().min(1).max(64),
  fileName: z.string().trim().min(1).max(255).optional(),
  custom_id: z.string().min(1).max(255).optional(),
});

/**
 * The multipart form of POST /api/datasources as the domain reads it: the text fields validated,
 * `custom_id` renamed to `customId`, each absent when not given (`fileName` then falls back to the
 * uploaded file's own name), and the uploaded file.
 */
export const fileDatasourceFields = fileFormFields.transform(
  ({ type: _type, custom_id: customId, fileName, ...rest }) => ({
    ...rest,
    ...(fileName ? { fileName } : {}),
    ...(customId ? { customId } : {}),
  }),
);

export type FileDatasourceInput = z.output<typeof fileDatasourceFields> & {
  file: { bytes: Buffer; declaredMime?: string; fileName?: string };
};

/** The body of the deprecated POST /api/datastores/update/{datastoreId}. */
export const textUpdateBody = z.object({
  id: z.string().min(1).max(64),
  text: z.string().min(1),
  name: z.string().trim().min(1).max(500).optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

export type TextUpdateInput = z.output<typeof textUpdateBody>;

/**
 * The spec's Datasource object, plus datastoreId, customId, errorMessage, counts and the re-sync
 * schedule (`lastSynch` is the end of the last successful sync).
 */
export const datasourceResponse = z.object({
  id: z.string(),
  datastoreId: z.string(),
  type: z.string(),
  name: z.string(),
  groupId: z.string().nullable(),
  status: z.enum(DATASOURCE_STATUSES),
  errorMessage: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
  customId: z.string().nullable(),
  chunkCount: z.number(),
  tokenCount: z.number(),
  sizeBytes: z.number(),
  lastSynch: z.string().nullable().describe("When the last successful sync ended"),
  syncSchedule: syncSchedules.nullable(),
  nextSyncAt: z.string().nullable().describe("When the scheduled re-sync is next due"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
