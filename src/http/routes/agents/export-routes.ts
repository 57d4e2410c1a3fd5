import { z } from "zod";
import {
  type ConversationExportService,
  EXPORT_MAX_LIMIT,
} from "../../../domain/conversations/conversation-export-service.ts";
import { endOf, isoInstant } from "../../../lib/iso-instant.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import { agentIdParams } from "./agent-schemas.ts";
import { clientIdSchema } from "./query-schemas.ts";

export type ExportRouteDeps = { conversationExports: ConversationExportService };

const EXPORT_CHANNELS = [
  "all",
  "website",
  "whatsapp",
  "telegram",
  "slack",
  "dashboard",
  "meta",
  "mercadolibre",
  "chatwoot",
  "crmchatsappai",
] as const;

const exportQuery = z.object({
  from: isoInstant.optional(),
  to: isoInstant.optional().describe("Inclusive; a date without a time includes that whole day"),
  conversationId: z
    .string()
    .max(50_000)
    .transform((value) =>
      value
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    )
    .pipe(z.array(clientIdSchema).min(1, "must name at least one id").max(1_000))
    .optional()
    .describe("Comma-separated conversation ids"),
  include: z.enum(["all", "human", "agent"]).default("all"),
  status: z.enum(["all", "RESOLVED", "UNRESOLVED", "HUMAN_REQUESTED"]).default("all"),
  channel: z.enum(EXPORT_CHANNELS).default("all"),
  limit: z.coerce.number().int().min(1).max(EXPORT_MAX_LIMIT).default(5_000),
  preview: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true")
    .describe("true limits the export to 100 messages"),
  orderBy: z.enum(["asc", "desc"]).default("asc"),
  search: z.string().max(500).optional().describe("Case-insensitive text search"),
});

/** GET /api/agents/{id}/conversations-export (spec): CSV streamed from the database. */
export function registerExportRoutes(app: App, deps: ExportRouteDeps): void {
  app.get(
    "/api/agents/:id/conversations-export",
    {
      config: { auth: "key", permission: "conversations:read", agentParam: "id" },
      schema: {
        operationId: "exportConversations",
        tags: ["conversations"],
        summary: "CSV export of an agent's conversation messages",
        params: agentIdParams,
        querystring: exportQuery,
        produces: ["text/csv"],
        errors: {
          400: "Invalid query parameters (a bad date, from after to, a search over 500 characters)",
          404: "No agent with this id in the organization",
          500: "The export failed",
        },
      },
    },
    async (request, reply) => {
      const {
        from,
        to,
        search,
        orderBy,
        conversationId,
        include,
        status,
        channel,
        limit,
        preview,
      } = request.query;
      const csv = await deps.conversationExports.exportCsv(callerOf(request), request.params.id, {
        from: from?.date,
        to: to ? endOf(to) : undefined,
        toExclusive: to?.dateOnly ?? false,
        conversationIds: conversationId,
        include,
        status,
        channel,
        limit,
        preview,
        search: search === "" ? undefined : search,
        order: orderBy,
      });
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${csv.fileName}"`)
        .header("cache-control", "no-store");
      return reply.send(csv.body);
    },
  );
}
