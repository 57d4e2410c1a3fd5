import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { conversations, messages } from "../../db/schema/index.ts";

/** Where an agent message stands: the key of a Responses API `previous_response_id`. */
export function createAnsweredMessageRepo(db: Db) {
  return {
    /** The agent and conversation (its API id) of an agent message of the organization. */
    async findAgentMessage(
      organizationId: string,
      messageId: string,
      tx: Db = db,
    ): Promise<{ agentId: string; conversationId: string } | null> {
      const [row] = await tx
        .select({ agentId: conversations.agentId, conversationId: conversations.externalId })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(messages.id, messageId),
            eq(messages.from, "agent"),
          ),
        );
      return row ?? null;
    },
  };
}

export type AnsweredMessageRepo = ReturnType<typeof createAnsweredMessageRepo>;
