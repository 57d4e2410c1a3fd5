import { z } from "zod";

export const datasourceParams = z.object({ id: z.string().min(1).max(64) });
export const datastoreIdParams = z.object({ datastoreId: z.string().min(1).max(64) });

const httpUrl = z
  .string()
  .trim()
  .max(2_048)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "must be an absolute http(s) URL",
  });

/** The JSON form of POST /api/datasources (web pages and web sites). */
export const webDatasourceBody = z.object({
  datastoreId: z.string().min(1).max(64),
  type: z.enum(["web_page", "web_site"], {
    error: "type must be web_page or web_site (upload a file as multipart/form-data)",
  }),
  name: z.string().trim().min(1).max(500).optional(),
  custom_id: z.string().min(1).max(255).optional().describe("Extension in the JSON form"),
  config: z.object({ source_url: httpUrl.optional(), sitemap: httpUrl.optional() }),
});

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
  lastSynch: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
