import { z } from "zod";
import type { OrganizationService } from "../../../domain/organizations/organization-service.ts";
import type { App } from "../../app-types.ts";
import { type AuthHooks, contextOf } from "../../plugins/auth.ts";

/** GET /api/me (extension): who the presented key belongs to; handy to check a key works. */
export function registerAccountRoutes(
  app: App,
  deps: { auth: AuthHooks; organizations: Pick<OrganizationService, "requireOrganization"> },
): void {
  app.get(
    "/api/me",
    {
      preHandler: deps.auth.required(),
      schema: {
        summary: "The organization and key behind the bearer token (extension)",
        tags: ["extensions"],
        security: [{ bearerAuth: [] }],
        response: {
          200: z.object({
            organization: z.object({ id: z.string(), name: z.string() }),
            userId: z.string(),
            apiKeyId: z.string(),
          }),
        },
      },
    },
    async (request) => {
      const context = contextOf(request);
      const organization = await deps.organizations.requireOrganization(context.organizationId);
      return {
        organization: { id: organization.id, name: organization.name },
        userId: context.userId,
        apiKeyId: context.apiKeyId,
      };
    },
  );
}
