import { z } from "zod";

/** The longest reply an operator may send: one message on every platform (Slack's 4,000). */
const MAX_REPLY_CHARS = 4_000;

/** PATCH /api/conversations/{id} (DESIGN.md §12). */
export const conversationStateSchema = z
  .object({
    status: z.enum(["UNRESOLVED", "RESOLVED", "HUMAN_REQUESTED"]).optional(),
    aiEnabled: z.boolean().optional(),
    assigneeId: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .describe("A member of the organization; null unassigns"),
  })
  .refine(
    (body) => Object.values(body).some((value) => value !== undefined),
    "Send at least one of status, aiEnabled, assigneeId",
  );

/** POST /api/conversations/{id}/messages: an operator's reply. */
export const operatorReplySchema = z.object({
  text: z.string().trim().min(1).max(MAX_REPLY_CHARS),
});

export type ConversationStateChange = z.output<typeof conversationStateSchema>;
export type OperatorReply = z.output<typeof operatorReplySchema>;
