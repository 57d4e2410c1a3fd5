import { z } from "zod";
import { FOLLOW_UP_VERDICTS } from "./follow-up-prompts.ts";

const LONG_TEXT = 100_000;

/**
 * The body of POST /api/agents/{agentId}/follow-up/query: the route validates with it, the domain
 * reads its type.
 */
export const followUpBody = z.object({
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

/** The body of POST /api/agents/{agentId}/follow-up/query, validated (defaults filled in). */
export type FollowUpRequest = z.output<typeof followUpBody>;

/** The answer of POST /api/agents/{agentId}/follow-up/query. */
export const followUpResponse = z.object({
  answer: z.string(),
  filter: z.object({ verdict: z.enum(FOLLOW_UP_VERDICTS), wouldSend: z.boolean() }).nullable(),
  prompt: z.string(),
  promptSource: z.enum(["request", "agent"]),
  conversationId: z.string().nullable(),
  messageId: z.string().nullable(),
  model: z.string(),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
});

export type FollowUpResponse = z.output<typeof followUpResponse>;
