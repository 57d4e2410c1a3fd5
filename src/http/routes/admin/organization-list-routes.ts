import { z } from "zod";
import type { OrganizationDirectory } from "../../../domain/organizations/organization-directory.ts";
import type { App } from "../../app-types.ts";
import { billingSettings } from "./organization-schemas.ts";

export type OrganizationListRouteDeps = { directory: OrganizationDirectory };

/** The page bounds of the organizations list, as the leads inbox's. */
const PAGE_MAX = 1_000;
const PAGE_DEFAULT = 50;

const organizationSummary = billingSettings.extend({ createdAt: z.string() });

const apiKeySummary = z.object({
  id: z.string(),
  name: z.string(),
  keyPrefix: z.string().describe("The key's first characters, to recognise it; never the key"),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().describe("To the minute"),
  revokedAt: z.string().nullable(),
});

/** GET /api/admin/organizations and their API keys: the admin API's twin of `org list`. */
export function registerOrganizationListRoutes(app: App, deps: OrganizationListRouteDeps): void {
  app.get(
    "/api/admin/organizations",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "listOrganizations",
        tags: ["admin"],
        summary: "List organizations, newest first",
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(PAGE_MAX).default(PAGE_DEFAULT),
          cursor: z.string().min(1).max(500).optional().describe("nextCursor of the previous page"),
        }),
        response: {
          200: z.object({ data: z.array(organizationSummary), nextCursor: z.string().nullable() }),
        },
        errors: { 400: "Invalid query parameters (a bad limit or cursor)" },
      },
    },
    async (request) => deps.directory.listOrganizations(request.query),
  );

  app.get(
    "/api/admin/organizations/:id/api-keys",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "listApiKeys",
        tags: ["admin"],
        summary: "List an organization's API keys (never the keys themselves)",
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: z.object({ data: z.array(apiKeySummary) }) },
        errors: { 404: "No organization with this id" },
      },
    },
    async (request) => ({ data: await deps.directory.listApiKeys(request.params.id) }),
  );
}
