import { z } from "zod";
import type { RetentionService } from "../../../domain/retention/retention-service.ts";
import type { App } from "../../app-types.ts";
import { auditedBy } from "../../plugins/auth.ts";

export type RetentionAdminDeps = { retention: RetentionService };

/** The retention setting of an organization, and the daily sweep run on demand. */
export function registerRetentionAdminRoutes(app: App, deps: RetentionAdminDeps): void {
  app.patch(
    "/api/admin/organizations/:id",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "updateOrganization",
        tags: ["admin"],
        summary: "Change an organization's settings: how long its conversations are kept",
        params: z.object({ id: z.string().min(1).max(64) }),
        body: z.strictObject({
          conversationRetentionDays: z
            .number()
            .int()
            .min(1)
            .max(36_500)
            .nullable()
            .describe(
              "Conversations idle (no new message) longer than this many days are erased by the " +
                "daily sweep; null keeps them forever",
            ),
        }),
        response: {
          200: z.object({
            organization: z.object({
              id: z.string(),
              name: z.string(),
              conversationRetentionDays: z.number().int().nullable(),
            }),
          }),
        },
        errors: { 404: "No organization with this id" },
      },
    },
    async (request) => ({
      organization: await deps.retention.setRetentionDays(
        request.params.id,
        request.body.conversationRetentionDays,
        auditedBy(request),
      ),
    }),
  );

  app.post(
    "/api/admin/retention/run",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "runRetention",
        tags: ["admin"],
        summary:
          "Run the daily retention sweep now and wait for it: erases the conversations idle " +
          "longer than their organization's conversationRetentionDays",
        response: {
          200: z.object({
            organizations: z.number().int().describe("Organizations with a retention setting"),
            conversationsDeleted: z.number().int(),
          }),
        },
      },
    },
    async () => deps.retention.sweep(),
  );
}
