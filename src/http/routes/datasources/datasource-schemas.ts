import { z } from "zod";
import { SYNC_SCHEDULES } from "../../../db/schema/index.ts";

export const datasourceParams = z.object({ id: z.string().min(1).max(64) });
export const datastoreIdParams = z.object({ datastoreId: z.string().min(1).max(64) });

const httpUrl = z
  .string()
  .trim()
  .max(2_048)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "must be an absolute http(s) URL",
  });

const syncSchedule = z
  .enum(SYNC_SCHEDULES, { error: "syncSchedule must be hourly, daily, weekly or null" })
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

/** PATCH /api/datasources/{id}: the settings a datasource can change. */
export const updateDatasourceBody = z.object({ syncSchedule });

export const textUpdateBody = z.object({
  id: z.string().min(1).max(64),
  text: z.string().min(1),
  name: z.string().trim().min(1).max(500).optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const datasourceResponse = z.object({
  id: z.string(),
  datastoreId: z.string(),
  type: z.string(),
  name: z.string(),
  groupId: z.string().nullable(),
  status: z.enum(["unsynched", "pending", "running", "synched", "error", "usage_limit_reached"]),
  errorMessage: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
  customId: z.string().nullable(),
  chunkCount: z.number(),
  tokenCount: z.number(),
  sizeBytes: z.number(),
  lastSynch: z.string().nullable().describe("When the last successful sync ended"),
  syncSchedule: z.enum(SYNC_SCHEDULES).nullable(),
  nextSyncAt: z.string().nullable().describe("When the scheduled re-sync is next due"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
