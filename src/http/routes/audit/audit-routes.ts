import { z } from "zod";
import type { AuditLog } from "../../../domain/accounts/audit-log.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

const PAGE_MAX = 200;
const PAGE_DEFAULT = 50;

const auditEvent = z.object({
  id: z.string(),
  action: z.string().describe("e.g. login.succeeded, member.invited, key.revoked"),
  actor: z.object({
    type: z.enum(["user", "key", "admin", "system"]),
    id: z.string().nullable(),
    email: z.string().optional(),
  }),
  target: z.object({ type: z.string(), id: z.string() }).nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  at: z.string(),
  details: z.record(z.string(), z.unknown()).describe("Never a password, token or key"),
});

/** GET /api/audit-events: the organization's security events, for its owners and admins. */
export function registerAuditRoutes(app: App, deps: { audit: AuditLog }): void {
  app.get(
    "/api/audit-events",
    {
      config: { auth: "key", permission: "audit:read" },
      schema: {
        operationId: "listAuditEvents",
        tags: ["accounts"],
        "x-extension": true,
        summary: "The organization's security events, newest first",
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(PAGE_MAX).default(PAGE_DEFAULT),
          cursor: z.string().min(1).max(500).optional().describe("nextCursor of the previous page"),
          action: z.string().min(1).max(100).optional(),
          actorId: z.string().min(1).max(100).optional(),
        }),
        response: {
          200: z.object({ data: z.array(auditEvent), nextCursor: z.string().nullable() }),
        },
        errors: { 400: "Invalid query parameters (a bad limit or cursor)" },
      },
    },
    async (request) => deps.audit.page(callerOf(request).organizationId, request.query),
  );
}
