import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import { type Db, tableRowOf } from "../../db/client.ts";
import { channelSends, contacts, conversations, messages, users } from "../../db/schema/index.ts";
import { executePart, type StatementPart } from "../../db/statement-parts.ts";

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessageRow = typeof messages.$inferInsert;
export type ContactSummary = Pick<
  typeof contacts.$inferSelect,
  "id" | "email" | "phoneNumber" | "firstName" | "lastName" | "externalUserId"
>;

/** How a turn moves the status: a human request wins; a new customer message reopens a resolved one. */
export type StatusChange = "human_requested" | "reopen" | "keep";

/** A message of a turn: the conversation, organization and agent are the turn's. */
export type TurnMessage = Omit<NewMessageRow, "organizationId" | "conversationId" | "agentId">;

export type RecordedTurn = {
  organizationId: string;
  agentId: string;
  /**
   * Used as given when the turn creates the conversation; `id` is then the new row's key (an
   * existing conversation of the agent with this externalId keeps its own).
   */
  conversation: Pick<
    ConversationRow,
    "id" | "externalId" | "visitorId" | "channel" | "channelExternalId" | "startedAnonymously"
  >;
  status: StatusChange;
  /** Set on the conversation; an absent one leaves its contact as it is. */
  contactId?: string | null;
  messages: TurnMessage[];
};

/** The conversation's status after a turn, as an expression over its current status. */
function statusAfter(change: StatusChange): SQL {
  if (change === "human_requested") return sql`'HUMAN_REQUESTED'`;
  if (change === "reopen") {
    return sql`case when ${conversations.status} = 'RESOLVED' then 'UNRESOLVED' else ${conversations.status} end`;
  }
  return sql`${conversations.status}`;
}

/**
 * Whether the AI may answer after a turn: not once a person was asked for; again when a
 * resolved conversation is reopened by the customer (docs/handoff.md).
 */
function aiEnabledAfter(change: StatusChange): SQL {
  if (change === "human_requested") return sql`false`;
  if (change === "reopen") {
    return sql`case when ${conversations.status} = 'RESOLVED' then true else ${conversations.aiEnabled} end`;
  }
  return sql`${conversations.aiEnabled}`;
}

/** The first moment a person was asked for, kept while the request stands. */
function humanRequestedAtAfter(change: StatusChange): SQL {
  if (change === "human_requested") return sql`coalesce(${conversations.humanRequestedAt}, now())`;
  return sql`${conversations.humanRequestedAt}`;
}

/** The turn's messages as one JSON parameter (snake_case keys, see recordTurn's recordset). */
function messagesJson(rows: TurnMessage[]): string {
  return JSON.stringify(
    rows.map((row) => ({
      id: row.id,
      from: row.from,
      text: row.text,
      sources: row.sources,
      usage: row.usage,
      attachments: row.attachments,
      metadata: row.metadata,
      is_draft: row.isDraft,
      agent_version: row.agentVersion,
      created_at: row.createdAt?.toISOString(),
    })),
  );
}

/** A conversation's assignee as the API shows it (all null when nobody is assigned). */
export const assigneeColumns = { id: users.id, email: users.email, name: users.name };

/** The contact fields a conversation shows (all null when it has none). */
export const contactColumns = {
  id: contacts.id,
  email: contacts.email,
  phoneNumber: contacts.phoneNumber,
  firstName: contacts.firstName,
  lastName: contacts.lastName,
  externalUserId: contacts.externalUserId,
};

/**
 * A turn as a statement part (CTEs `conversation` and `stored`, columns of the conversation): see
 * ConversationRepo.recordTurn.
 */
function turnPart(turn: RecordedTurn): StatementPart<ConversationRow> {
  const { organizationId, agentId, conversation } = turn;
  return {
    ctes: sql`
      conversation as (
        insert into conversations (id, external_id, organization_id, agent_id, visitor_id,
          channel, channel_external_id, status, ai_enabled, human_requested_at, contact_id,
          started_anonymously)
        values (${conversation.id}, ${conversation.externalId}, ${organizationId}, ${agentId},
          ${conversation.visitorId}, ${conversation.channel}, ${conversation.channelExternalId},
          ${turn.status === "human_requested" ? "HUMAN_REQUESTED" : "UNRESOLVED"},
          ${turn.status !== "human_requested"},
          ${turn.status === "human_requested" ? sql`now()` : null}, ${turn.contactId ?? null},
          ${conversation.startedAnonymously})
        on conflict (organization_id, external_id, agent_id) do update set
          status = ${statusAfter(turn.status)},
          ai_enabled = ${aiEnabledAfter(turn.status)},
          human_requested_at = ${humanRequestedAtAfter(turn.status)},
          contact_id = coalesce(excluded.contact_id, ${conversations.contactId}),
          updated_at = ${new Date().toISOString()}::timestamptz
        returning *
      ), stored as (
        insert into messages (id, organization_id, conversation_id, agent_id, "from", text,
          sources, usage, attachments, metadata, is_draft, agent_version, created_at)
        select m.id, c.organization_id, c.id, c.agent_id, m."from", m.text,
          coalesce(m.sources, '[]'), m.usage, coalesce(m.attachments, '[]'),
          coalesce(m.metadata, '{}'), coalesce(m.is_draft, false), m.agent_version,
          coalesce(m.created_at, now())
        from conversation c
        cross join jsonb_to_recordset(${messagesJson(turn.messages)}::jsonb) as m(id text,
          "from" text, text text, sources jsonb, usage jsonb, attachments jsonb, metadata jsonb,
          is_draft boolean, agent_version integer, created_at timestamptz)
      )`,
    row: sql`select * from conversation`,
    // The insert or its update always returns the conversation's row.
    read: (row) => tableRowOf(conversations, row!),
  };
}

export function createConversationRepo(db: Db) {
  return {
    /** The agent's conversation with this API id (`externalId`). */
    async findOfAgent(
      organizationId: string,
      agentId: string,
      externalId: string,
      tx: Db = db,
    ): Promise<ConversationRow | null> {
      const [row] = await tx
        .select()
        .from(conversations)
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(conversations.externalId, externalId),
            eq(conversations.agentId, agentId),
          ),
        );
      return row ?? null;
    },

    /**
     * The organization's conversations with this API id, of one agent when agentId is given: at
     * most two rows, enough to tell one from several (two agents may use the same id).
     */
    async findInOrganization(
      organizationId: string,
      externalId: string,
      agentId: string | undefined,
      tx: Db = db,
    ) {
      const conditions = [
        eq(conversations.organizationId, organizationId),
        eq(conversations.externalId, externalId),
      ];
      if (agentId !== undefined) conditions.push(eq(conversations.agentId, agentId));
      return tx
        .select({ conversation: conversations, contact: contactColumns, assignee: assigneeColumns })
        .from(conversations)
        .leftJoin(contacts, eq(contacts.id, conversations.contactId))
        .leftJoin(users, eq(users.id, conversations.assigneeId))
        .where(and(...conditions))
        .limit(2);
    },

    /** The conversation with this row key (`id`, as messages and webhook windows hold it). */
    async findById(organizationId: string, conversationId: string, tx: Db = db) {
      const [row] = await tx
        .select({ conversation: conversations, contact: contactColumns, assignee: assigneeColumns })
        .from(conversations)
        .leftJoin(contacts, eq(contacts.id, conversations.contactId))
        .leftJoin(users, eq(users.id, conversations.assigneeId))
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

    /** Applies a turn to an agent's conversation; null when no such conversation of this agent. */
    async applyTurn(
      organizationId: string,
      agentId: string,
      conversationId: string,
      change: { status: StatusChange; contactId?: string | null },
      tx: Db = db,
    ): Promise<ConversationRow | null> {
      const [row] = await tx
        .update(conversations)
        .set({
          status: statusAfter(change.status),
          aiEnabled: aiEnabledAfter(change.status),
          humanRequestedAt: humanRequestedAtAfter(change.status) as unknown as Date,
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
     * A whole turn in one statement: creates the conversation, or applies the turn to the agent's
     * conversation with this externalId, and stores the messages in it.
     */
    recordTurn(turn: RecordedTurn, tx: Db = db): Promise<ConversationRow> {
      return executePart(tx, turnPart(turn));
    },

    turnPart,

    /**
     * Stores messages and, in the same statement, moves the last activity (`updatedAt`) of the
     * conversations that got a sent (non-draft) one: the inbox's lastActivity order and the
     * retention sweep read it. A conversation this transaction already moved is not written twice.
     */
    async insertMessages(rows: NewMessageRow[], tx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      const stored = tx
        .insert(messages)
        .values(rows)
        .returning({ conversationId: messages.conversationId, isDraft: messages.isDraft });
      await tx.execute(sql`
        with stored as (${stored.getSQL()})
        update ${conversations} set updated_at = now()
        where ${conversations.id} in (select conversation_id from stored where not is_draft)
          and ${conversations.updatedAt} < now()`);
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

    /**
     * Every message of a conversation, drafts included, in the order they were written, with
     * what a channel did with the ones sent through it.
     */
    async allMessages(organizationId: string, conversationId: string, tx: Db = db) {
      const rows = await tx
        .select({
          message: messages,
          delivery: {
            status: channelSends.status,
            platformMessageId: channelSends.platformMessageId,
            error: channelSends.error,
          },
        })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .leftJoin(channelSends, eq(channelSends.messageId, messages.id))
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(messages.conversationId, conversationId),
          ),
        )
        .orderBy(asc(messages.createdAt), asc(messages.id));
      return rows.map((row) => ({ ...row.message, delivery: row.delivery }));
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
