import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { contacts, conversations, messages } from "../../db/schema/index.ts";

export type ConversationRow = typeof conversations.$inferSelect;
export type NewConversationRow = typeof conversations.$inferInsert;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessageRow = typeof messages.$inferInsert;
export type ContactSummary = Pick<
  typeof contacts.$inferSelect,
  "id" | "email" | "phoneNumber" | "firstName" | "lastName" | "externalUserId"
>;

/** How a turn moves the status: a human request wins; a new customer message reopens a resolved one. */
export type StatusChange = "human_requested" | "reopen" | "keep";

const contactColumns = {
  id: contacts.id,
  email: contacts.email,
  phoneNumber: contacts.phoneNumber,
  firstName: contacts.firstName,
  lastName: contacts.lastName,
  externalUserId: contacts.externalUserId,
};

export function createConversationRepo(db: Db) {
  return {
    /**
     * The conversation with this id in any organization. Conversation ids are one global space
     * (clients may choose them, e.g. crmchatsappai_…), so callers need to know whether an id is
     * taken elsewhere before they may create it; they compare organizationId and agentId.
     */
    async findByIdForOwnershipCheck(conversationId: string, tx: Db = db) {
      const [row] = await tx
        .select()
        .from(conversations)
        .where(eq(conversations.id, conversationId));
      return row ?? null;
    },

    async findById(organizationId: string, conversationId: string, tx: Db = db) {
      const [row] = await tx
        .select({ conversation: conversations, contact: contactColumns })
        .from(conversations)
        .leftJoin(contacts, eq(contacts.id, conversations.contactId))
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(conversations.id, conversationId),
          ),
        );
      return row ?? null;
    },

    /** The latest conversation of an agent on a channel with this external id (whatsapp). */
    async findByChannelExternalId(
      organizationId: string,
      agentId: string,
      channel: string,
      channelExternalId: string,
      tx: Db = db,
    ): Promise<ConversationRow | null> {
      const [row] = await tx
        .select()
        .from(conversations)
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(conversations.channelExternalId, channelExternalId),
            eq(conversations.agentId, agentId),
            eq(conversations.channel, channel),
          ),
        )
        .orderBy(desc(conversations.createdAt))
        .limit(1);
      return row ?? null;
    },

    /** Creates the conversation unless the id exists (then returns null: check its owner). */
    async insertIfAbsent(row: NewConversationRow, tx: Db = db): Promise<ConversationRow | null> {
      const [inserted] = await tx
        .insert(conversations)
        .values(row)
        .onConflictDoNothing()
        .returning();
      return inserted ?? null;
    },

    /** Applies a turn to an agent's conversation; null when no such conversation of this agent. */
    async applyTurn(
      organizationId: string,
      agentId: string,
      conversationId: string,
      change: { status: StatusChange; contactId?: string | null },
      tx: Db = db,
    ): Promise<ConversationRow | null> {
      const status =
        change.status === "human_requested"
          ? sql`'HUMAN_REQUESTED'`
          : change.status === "reopen"
            ? sql`case when ${conversations.status} = 'RESOLVED' then 'UNRESOLVED' else ${conversations.status} end`
            : sql`${conversations.status}`;
      const [row] = await tx
        .update(conversations)
        .set({
          status,
          ...(change.contactId ? { contactId: change.contactId } : {}),
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(conversations.agentId, agentId),
            eq(conversations.id, conversationId),
          ),
        )
        .returning();
      return row ?? null;
    },

    /**
     * Newest first, keyset-paged by (createdAt, id); `cursorAt` is the exact (microsecond)
     * timestamp as text, since a JavaScript Date would round it to the millisecond.
     */
    async list(
      organizationId: string,
      filter: { agentId?: string; before?: { createdAt: string; id: string }; limit: number },
      tx: Db = db,
    ) {
      const conditions = [eq(conversations.organizationId, organizationId)];
      if (filter.agentId) conditions.push(eq(conversations.agentId, filter.agentId));
      if (filter.before) {
        const { createdAt, id } = filter.before;
        conditions.push(
          sql`(${conversations.createdAt}, ${conversations.id}) < (${createdAt}::timestamptz, ${id})`,
        );
      }
      return tx
        .select({
          conversation: conversations,
          contact: contactColumns,
          cursorAt: sql<string>`${conversations.createdAt}::text`,
        })
        .from(conversations)
        .leftJoin(contacts, eq(contacts.id, conversations.contactId))
        .where(and(...conditions))
        .orderBy(desc(conversations.createdAt), desc(conversations.id))
        .limit(filter.limit);
    },

    async insertMessages(rows: NewMessageRow[], tx: Db = db): Promise<void> {
      if (rows.length > 0) await tx.insert(messages).values(rows);
    },

    // Message reads are scoped through their conversation's organization: an organization filter
    // on messages itself invites a bitmap AND with messages_organization_idx, which reads every
    // message of the organization when statistics are missing (PGlite has no autovacuum).

    /** The last `limit` sent (non-draft) messages of a conversation, oldest first. */
    async recentMessages(
      organizationId: string,
      conversationId: string,
      limit: number,
      tx: Db = db,
    ): Promise<Array<Pick<MessageRow, "from" | "text">>> {
      const rows = await tx
        .select({ from: messages.from, text: messages.text })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(messages.conversationId, conversationId),
            eq(messages.isDraft, false),
          ),
        )
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(limit);
      return rows.reverse();
    },

    /** Every message of a conversation, drafts included, in the order they were written. */
    async allMessages(organizationId: string, conversationId: string, tx: Db = db) {
      const rows = await tx
        .select({ message: messages })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(messages.conversationId, conversationId),
          ),
        )
        .orderBy(asc(messages.createdAt), asc(messages.id));
      return rows.map((row) => row.message);
    },

    async setMessageUsage(
      organizationId: string,
      messageId: string,
      usage: NonNullable<MessageRow["usage"]>,
      tx: Db = db,
    ): Promise<void> {
      await tx
        .update(messages)
        .set({ usage })
        .where(and(eq(messages.organizationId, organizationId), eq(messages.id, messageId)));
    },
  };
}

export type ConversationRepo = ReturnType<typeof createConversationRepo>;
