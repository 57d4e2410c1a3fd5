import { z } from "zod";
import type { OrganizationService } from "../../../domain/organizations/organization-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

/** GET /api/me (extension): who the presented key belongs to; handy to check a key works. */
export function registerAccountRoutes(
  app: App,
  deps: { organizations: Pick<OrganizationService, "requireOrganization"> },
): void {
  app.get(
    "/api/me",
    {
      config: { auth: "key", permission: "identity" },
      schema: {
        operationId: "getAccount",
        tags: ["health"],
        "x-extension": true,
        summary: "The organization and key (or session user) behind the request (extension)",
        response: {
          200: z.object({
            organization: z.object({ id: z.string(), name: z.string() }),
            userId: z.string(),
            /** Null when a signed-in session is calling. */
            apiKeyId: z.string().nullable(),
          }),
        },
      },
    },
    async (request) => {
      const context = callerOf(request);
      const organization = await deps.organizations.requireOrganization(context.organizationId);
      return {
        organization: { id: organization.id, name: organization.name },
        userId: context.userId,
        apiKeyId: context.apiKeyId,
      };
    },
  );
}
