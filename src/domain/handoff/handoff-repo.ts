import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { apiKeys, conversations, memberships, users } from "../../db/schema/index.ts";

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
