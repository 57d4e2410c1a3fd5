import { z } from "zod";
import { syncSchedules } from "../../../domain/knowledge/datasource-request.ts";

export const datasourceParams = z.object({ id: z.string().min(1).max(64) });
export const datastoreIdParams = z.object({ datastoreId: z.string().min(1).max(64) });

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
  syncSchedule: syncSchedules.nullable(),
  nextSyncAt: z.string().nullable().describe("When the scheduled re-sync is next due"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
