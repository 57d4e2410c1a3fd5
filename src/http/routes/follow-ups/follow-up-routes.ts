import { z } from "zod";
import { followUpBody, followUpResponse } from "../../../domain/follow-ups/follow-up-request.ts";
import type { FollowUpService } from "../../../domain/follow-ups/follow-up-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

export type FollowUpRouteDeps = { followUps: FollowUpService };

/** POST /api/agents/{agentId}/follow-up/query (spec): the follow-up agent on demand. */
export function registerFollowUpRoutes(app: App, deps: FollowUpRouteDeps): void {
  app.post(
    "/api/agents/:id/follow-up/query",
    {
      // Before validation, so a request without a valid key is 403 whatever its body.
      config: { auth: "key", refusal: "forbidden", permission: "query", agentParam: "id" },
      schema: {
        operationId: "queryFollowUp",
        tags: ["agents"],
        summary: "Preview the follow-up message an agent would send to a quiet conversation",
        params: z.object({ id: z.string().min(1).max(200) }),
        body: followUpBody,
        response: { 200: followUpResponse },
        errors: {
          401: "The agent belongs to another organization",
          402: "Usage limit: the organization has no credits left (type USAGE_LIMIT)",
          404: "No such agent (NOT_FOUND), or no such conversation of it (CONVERSATION_NOT_FOUND)",
          500: "The model returned an empty response; the message gives the finish reason",
        },
      },
    },
    async (request) => deps.followUps.run(callerOf(request), request.params.id, request.body),
  );
}
