import { z } from "zod";
import type { RetentionService } from "../../../domain/retention/retention-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

export type ContactRouteDeps = { retention: Pick<RetentionService, "deleteContact"> };

/** DELETE /api/contacts/{id} (extension): erasure of one end user on request. */
export function registerContactRoutes(app: App, deps: ContactRouteDeps): void {
  app.delete(
    "/api/contacts/:id",
    {
      config: { auth: "key", permission: "conversations:write" },
      schema: {
        operationId: "deleteContact",
        tags: ["conversations"],
        "x-extension": true,
        summary:
          "Erase a contact and every conversation linked to it; consumption events are kept " +
          "without them (docs/retention.md)",
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: z.object({ success: z.literal(true) }) },
        errors: { 404: "No contact with this id in the caller's organization" },
      },
    },
    async (request) => deps.retention.deleteContact(callerOf(request), request.params.id),
  );
}
