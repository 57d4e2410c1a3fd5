import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  agents,
  apiKeys,
  conversations,
  memberships,
  messages,
  users,
} from "../../db/schema/index.ts";

/** The roles that can answer a customer: a viewer only reads. */
const REPLYING_ROLES = ["owner", "admin", "member"] as const;

/** The reads and writes of a conversation's handoff state and of who its people are. */
export function createHandoffRepo(db: Db) {
  return {
    async isMember(organizationId: string, userId: string): Promise<boolean> {
      const [row] = await db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
      return row !== undefined;
    },

    async userOf(userId: string) {
      const [row] = await db
        .select({ id: users.id, email: users.email, name: users.name })
        .from(users)
        .where(eq(users.id, userId));
      return row ?? null;
    },

    async keyNameOf(organizationId: string, keyId: string): Promise<string | null> {
      const [row] = await db
        .select({ name: apiKeys.name })
        .from(apiKeys)
        .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, keyId)));
      return row?.name ?? null;
    },

    /**
     * Whom to tell that a customer waits, and about what: the conversation's assignee, or the
     * organization's members who can reply; with the agent's name and the customer's last words.
     * Null when the conversation is gone or no longer waits (someone already replied).
     */
    async waitingNotice(organizationId: string, agentId: string, externalId: string) {
      const [conversation] = await db
        .select({
          id: conversations.id,
          assigneeId: conversations.assigneeId,
          waiting: sql<boolean>`${conversations.humanRequestedAt} is not null`,
          agentName: agents.name,
        })
        .from(conversations)
        .innerJoin(agents, eq(agents.id, conversations.agentId))
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(conversations.agentId, agentId),
            eq(conversations.externalId, externalId),
          ),
        );
      if (!conversation?.waiting) return null;
      const recipients = await db
        .select({ email: users.email })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(
          and(
            eq(memberships.organizationId, organizationId),
            conversation.assigneeId
              ? eq(memberships.userId, conversation.assigneeId)
              : inArray(memberships.role, [...REPLYING_ROLES]),
          ),
        );
      const [last] = await db
        .select({ text: messages.text })
        .from(messages)
        .where(
          and(
            eq(messages.organizationId, organizationId),
            eq(messages.conversationId, conversation.id),
            eq(messages.from, "human"),
          ),
        )
        .orderBy(desc(messages.createdAt))
        .limit(1);
      return {
        agentName: conversation.agentName,
        recipients: recipients.map((recipient) => recipient.email),
        lastCustomerMessage: last?.text ?? null,
      };
    },

    /** Conversations that asked for a person and have the AI off, in every organization. */
    async waitingForHuman(): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::integer` })
        .from(conversations)
        .where(
          and(eq(conversations.status, "HUMAN_REQUESTED"), eq(conversations.aiEnabled, false)),
        );
      return row?.count ?? 0;
    },

    async setState(
      organizationId: string,
      conversationId: string,
      state: {
        status?: "UNRESOLVED" | "RESOLVED" | "HUMAN_REQUESTED";
        aiEnabled?: boolean;
        assigneeId?: string | null;
        humanRequestedAt?: Date | null;
      },
      tx: Db = db,
    ) {
      const [row] = await tx
        .update(conversations)
        .set({ ...state, updatedAt: sql`now()` as unknown as Date })
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(conversations.id, conversationId),
          ),
        )
        .returning();
      return row ?? null;
    },
  };
}

export type HandoffRepo = ReturnType<typeof createHandoffRepo>;
