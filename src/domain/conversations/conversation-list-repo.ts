import { type AnyColumn, and, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { containsPattern } from "../../db/like-pattern.ts";
import { contacts, conversations, messages, users } from "../../db/schema/index.ts";
import { assigneeColumns, type ConversationRow, contactColumns } from "./conversation-repo.ts";

/** Which timestamp orders a list of conversations: creation, or the last message or state change. */
export type ConversationSort = "createdAt" | "lastActivity";

/** The conditions of a list of conversations (all must hold) and where its page starts. */
export type ConversationListFilter = {
  agentId?: string | undefined;
  /** The only agents whose conversations are listed; null is all. */
  agentIds?: readonly string[] | null;
  status?: ConversationRow["status"] | undefined;
  aiEnabled?: boolean | undefined;
  channel?: string | undefined;
  /** A user id, or null for the conversations nobody is assigned to. */
  assigneeId?: string | null | undefined;
  /** Found, case-insensitively, in a sent message or the contact's name, e-mail or phone. */
  text?: string | undefined;
  sort: ConversationSort;
  /** The sort's timestamp (exact text) and the id of the last row of the previous page. */
  after?: { at: string; id: string } | undefined;
  limit: number;
};

/** How much of the last message a list shows. */
const LAST_MESSAGE_CHARS = 280;

export type LastMessage = { from: "human" | "agent"; text: string; createdAt: string };

/**
 * The conversation's last sent (non-draft) message as JSON, `createdAt` in toISOString's form (UTC,
 * milliseconds truncated, as a Date truncates them). A scalar subquery: evaluated only for the rows
 * the page keeps, one backward step of messages_conversation_idx each.
 */
function lastMessageOf(conversationId: AnyColumn): SQL<LastMessage | null> {
  return sql<LastMessage | null>`(
    select json_build_object('from', m."from", 'text', left(m.text, ${LAST_MESSAGE_CHARS}::integer),
      'createdAt', to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    from ${messages} m
    where m.conversation_id = ${conversationId} and not m.is_draft
    order by m.created_at desc, m.id desc
    limit 1)`;
}

/**
 * The conversations where `text` appears (ILIKE, its wildcards taken literally) in a sent message
 * or in the contact's name, e-mail or phone number; the contact is the list's joined row.
 */
function mentions(text: string): SQL {
  const pattern = containsPattern(text);
  return sql`(exists (select 1 from ${messages} m
      where m.conversation_id = ${conversations.id} and not m.is_draft and m.text ilike ${pattern})
    or concat_ws(' ', ${contacts.firstName}, ${contacts.lastName}) ilike ${pattern}
    or ${contacts.email} ilike ${pattern}
    or ${contacts.phoneNumber} ilike ${pattern})`;
}

/** The inbox: an organization's conversations filtered, ordered and paged (GET /api/conversations). */
export function createConversationListRepo(db: Db) {
  return {
    /**
     * A page of the organization's conversations matching every condition of `filter`, newest
     * first by the sort's timestamp, keyset-paged by (that timestamp, id); `cursorAt` is that
     * timestamp exactly (to the microsecond) as text, since a JavaScript Date would round it to the
     * millisecond. Each row has the conversation's last sent message (`lastMessage`, its text cut
     * to LAST_MESSAGE_CHARS), read only for the rows of the page.
     */
    async list(organizationId: string, filter: ConversationListFilter, tx: Db = db) {
      const sortColumn =
        filter.sort === "lastActivity" ? conversations.updatedAt : conversations.createdAt;
      const conditions = [eq(conversations.organizationId, organizationId)];
      if (filter.agentId) conditions.push(eq(conversations.agentId, filter.agentId));
      if (filter.agentIds) conditions.push(inArray(conversations.agentId, [...filter.agentIds]));
      if (filter.status) conditions.push(eq(conversations.status, filter.status));
      if (filter.aiEnabled !== undefined) {
        conditions.push(eq(conversations.aiEnabled, filter.aiEnabled));
      }
      if (filter.channel) conditions.push(eq(conversations.channel, filter.channel));
      if (filter.assigneeId === null) conditions.push(isNull(conversations.assigneeId));
      else if (filter.assigneeId) conditions.push(eq(conversations.assigneeId, filter.assigneeId));
      if (filter.text) conditions.push(mentions(filter.text));
      if (filter.after) {
        const { at, id } = filter.after;
        conditions.push(sql`(${sortColumn}, ${conversations.id}) < (${at}::timestamptz, ${id})`);
      }
      return tx.transaction(async (inner) => {
        // Without statistics (PGlite runs no autovacuum; a server before its first ANALYZE) the
        // planner takes an organization's conversations for a few rows and sorts all of them:
        // 100-250 ms at 100,000 for a filter on agent, channel or assignee. Forbidding the sort
        // leaves the walk down conversations_activity_idx, conversations_status_activity_idx or
        // conversations_created_idx, which stops at the page's last row (docs/agents.md).
        await inner.execute(sql`select set_config('enable_sort', 'off', true)`);
        return inner
          .select({
            conversation: conversations,
            contact: contactColumns,
            assignee: assigneeColumns,
            lastMessage: lastMessageOf(conversations.id),
            cursorAt: sql<string>`${sortColumn}::text`,
          })
          .from(conversations)
          .leftJoin(contacts, eq(contacts.id, conversations.contactId))
          .leftJoin(users, eq(users.id, conversations.assigneeId))
          .where(and(...conditions))
          .orderBy(desc(sortColumn), desc(conversations.id))
          .limit(filter.limit);
      });
    },
  };
}

export type ConversationListRepo = ReturnType<typeof createConversationListRepo>;
