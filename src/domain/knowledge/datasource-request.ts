import { z } from "zod";
import { SYNC_SCHEDULES } from "../../db/schema/index.ts";

const httpUrl = z
  .string()
  .trim()
  .max(2_048)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "must be an absolute http(s) URL",
  });

/** A datasource's re-sync schedule (hourly, daily, weekly). */
export const syncSchedules = z.enum(SYNC_SCHEDULES, {
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
