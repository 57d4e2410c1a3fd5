import { and, asc, desc, eq, inArray, notInArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { messages } from "../../db/schema/index.ts";

const columns = {
  id: messages.id,
  from: messages.from,
  text: messages.text,
  attachments: messages.attachments,
  metadata: messages.metadata,
  createdAt: messages.createdAt,
};

export type WindowMessage = {
  id: string;
  from: "human" | "agent";
  text: string;
  attachments: Array<{ url: string }>;
  metadata: Record<string, unknown>;
  createdAt: Date;
};

/** The messages a batching window answers, and the history that comes with them. */
export function createWindowMessageRepo(db: Db) {
  return {
    /** The waiting user messages of a window, in the order they were written. */
    async waiting(
      organizationId: string,
      conversationId: string,
      messageIds: readonly string[],
      tx: Db = db,
    ): Promise<WindowMessage[]> {
      if (messageIds.length === 0) return [];
      return tx
        .select(columns)
        .from(messages)
        .where(
          and(
            eq(messages.organizationId, organizationId),
            eq(messages.conversationId, conversationId),
            inArray(messages.id, [...messageIds]),
          ),
        )
        .orderBy(asc(messages.createdAt), asc(messages.id));
    },

    /** The last `limit` sent messages other than the waiting ones, oldest first. */
    async history(
      organizationId: string,
      conversationId: string,
      excludedIds: readonly string[],
      limit: number,
      tx: Db = db,
    ): Promise<WindowMessage[]> {
      const conditions = [
        eq(messages.organizationId, organizationId),
        eq(messages.conversationId, conversationId),
        eq(messages.isDraft, false),
      ];
      if (excludedIds.length > 0) conditions.push(notInArray(messages.id, [...excludedIds]));
      const rows = await tx
        .select(columns)
        .from(messages)
        .where(and(...conditions))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(limit);
      return rows.reverse();
    },
  };
}

export type WindowMessageRepo = ReturnType<typeof createWindowMessageRepo>;
