import { z } from "zod";
import {
  LEAD_PAGE_DEFAULT,
  LEAD_PAGE_MAX,
  leadFilterFields,
  leadFilterOf,
} from "../../../domain/leads/lead-inbox-request.ts";
import type { LeadInboxService } from "../../../domain/leads/lead-inbox-service.ts";
import type { App } from "../../app-types.ts";

export type LeadInboxRouteDeps = { leadInbox: LeadInboxService };

const text = z.string().nullable();

const leadView = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: text,
  source: text,
  postSlug: text,
  company: text,
  industry: text,
  companySize: text,
  area: text,
  hoursPerWeek: text,
  aiToday: text,
  score: z.number().nullable(),
  levelLabel: text,
  recommendedAgent: text,
  ipHash: text.describe("Keyed hash of the client IP; the address itself is never stored"),
  userAgent: text,
  createdAt: z.string(),
});

const pageQuery = {
  limit: z.coerce.number().int().min(1).max(LEAD_PAGE_MAX).default(LEAD_PAGE_DEFAULT),
  cursor: z.string().min(1).max(500).optional().describe("nextCursor of the previous page"),
};

const badQuery = "Invalid query parameters (a bad date or cursor, since not before until)";

/** /api/admin/leads: the operator's inbox of the marketing site's leads (docs/leads.md). */
export function registerLeadInboxRoutes(app: App, deps: LeadInboxRouteDeps): void {
  app.get(
    "/api/admin/leads",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "listLeads",
        tags: ["admin"],
        summary: "List stored leads, newest first",
        querystring: leadFilterFields.extend(pageQuery),
        response: {
          200: z.object({ data: z.array(leadView), nextCursor: z.string().nullable() }),
        },
        errors: { 400: badQuery },
      },
    },
    async (request) => {
      const { limit, cursor, ...fields } = request.query;
      return deps.leadInbox.list(leadFilterOf(fields), { limit, cursor });
    },
  );

  app.get(
    "/api/admin/leads/export",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "exportLeads",
        tags: ["admin"],
        summary: "Every lead the filters select as CSV, newest first, streamed",
        querystring: leadFilterFields,
        produces: ["text/csv"],
        errors: { 400: badQuery, 500: "The export failed" },
      },
    },
    async (request, reply) => {
      const csv = await deps.leadInbox.exportCsv(leadFilterOf(request.query));
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${csv.fileName}"`)
        .header("cache-control", "no-store");
      return reply.send(csv.body);
    },
  );

  app.delete(
    "/api/admin/leads/:id",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "deleteLead",
        tags: ["admin"],
        summary: "Delete a lead",
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 204: z.null().describe("Deleted") },
        errors: { 404: "No lead with this id" },
      },
    },
    async (request, reply) => {
      await deps.leadInbox.delete(request.params.id);
      reply.code(204);
    },
  );
}
