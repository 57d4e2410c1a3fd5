import { z } from "zod";
import { FOLLOW_UP_VERDICTS } from "../../../domain/follow-ups/follow-up-prompts.ts";
import type { FollowUpService } from "../../../domain/follow-ups/follow-up-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

export type FollowUpRouteDeps = { followUps: FollowUpService };

const LONG_TEXT = 100_000;

const followUpBody = z.object({
  conversationId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Reads the last 24 messages of this conversation of the agent"),
  messages: z
    .array(
      z.object({
        from: z.enum(["human", "agent"], { error: 'must be "human" or "agent"' }),
        text: z.string({ error: "must be a string" }).max(LONG_TEXT),
      }),
      { error: "must be an array of {from, text}" },
    )
    .min(1, "must contain 1 to 50 messages")
    .max(50, "must contain 1 to 50 messages")
    .optional()
    .describe("The conversation inline, oldest first (instead of conversationId)"),
  prompt: z
    .string()
    .max(LONG_TEXT)
    .optional()
    .describe(
      "Follow-up instructions replacing the agent's saved follow-up prompt, this request only",
    ),
  skipFilter: z.boolean().default(false).describe("true skips classification; filter is null"),
  saveToConversation: z
    .boolean()
    .default(false)
    .describe(
      "Store the message as an agent message (dashboard, website, form or api conversations)",
    ),
  streaming: z.boolean().default(false).describe("Only false is accepted"),
});

const followUpResponse = z.object({
  answer: z.string(),
  filter: z.object({ verdict: z.enum(FOLLOW_UP_VERDICTS), wouldSend: z.boolean() }).nullable(),
  prompt: z.string(),
  promptSource: z.enum(["request", "agent"]),
  conversationId: z.string().nullable(),
  messageId: z.string().nullable(),
  model: z.string(),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
});

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
