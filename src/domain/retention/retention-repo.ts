import { and, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client.ts";
import { contacts, organizations } from "../../db/schema/index.ts";

/**
 * The metadata keys of a consumption event that describe the metering, never the person: what
 * the query path, conversational mode and follow-ups write. Everything else (a window id, keys a
 * client chose) is dropped when the event's conversation is erased.
 */
export const KEPT_EVENT_METADATA = ["modelName", "usageEstimated", "trigger", "model", "offline"];

/** Which of an organization's conversations a batch erases. */
export type ErasureTarget =
  | { conversationId: string }
  | { contactId: string }
  | { idleBefore: Date };

function targetCondition(target: ErasureTarget): SQL {
  if ("conversationId" in target) return sql`c.id = ${target.conversationId}`;
  if ("contactId" in target) return sql`c.contact_id = ${target.contactId}`;
  return sql`c.updated_at < ${target.idleBefore.toISOString()}::timestamptz`;
}

export function createRetentionRepo(db: Db) {
  return {
    /**
     * Erases up to `limit` conversations of the organization matching `target`, oldest activity
     * first, in one statement: the ledger's events about them lose their conversation and message
     * ids and all but KEPT_EVENT_METADATA, and the conversations go with everything that
     * references them (messages, annotations and their tag links, webhook windows, deliveries and
     * attempts: foreign keys with on delete cascade), and so do their live events. The sweep (`idleBefore`) skips rows another
     * transaction holds, so two sweeps at once erase disjoint batches and a conversation being
     * written to waits for the next run; an erasure on request waits for them instead, so it
     * leaves nothing behind. Returns how many conversations it erased.
     */
    async eraseBatch(
      organizationId: string,
      target: ErasureTarget,
      limit: number,
      tx: Db = db,
    ): Promise<number> {
      const result = await tx.execute(sql`
        with doomed as (
          select c.id, c.external_id, c.agent_id
          from conversations c
          where c.organization_id = ${organizationId} and ${targetCondition(target)}
          order by c.updated_at
          limit ${limit}
          for update ${"idleBefore" in target ? sql`skip locked` : sql``}
        ), scrubbed as (
          update consumption_events e set
            conversation_id = null,
            message_id = null,
            metadata = (
              select coalesce(jsonb_object_agg(kept.key, kept.value), '{}'::jsonb)
              from jsonb_each(e.metadata) kept
              where kept.key in (${sql.join(
                KEPT_EVENT_METADATA.map((key) => sql`${key}`),
                sql`, `,
              )})
            )
          from doomed d
          where e.organization_id = ${organizationId}
            and e.conversation_id = d.external_id
            and e.agent_id = d.agent_id
          returning 1
        ), forgotten as (
          delete from live_events l
          using doomed d
          where l.organization_id = ${organizationId}
            and l.conversation_id = d.external_id
            and l.agent_id = d.agent_id
          returning 1
        ), erased as (
          delete from conversations c
          using doomed d
          where c.id = d.id
          returning 1
        )
        select (select count(*) from erased)::int as erased`);
      return Number(rowsOf<{ erased: number }>(result)[0]?.erased ?? 0);
    },

    /** Deletes the contact record itself; false when the organization has no such contact. */
    async deleteContact(organizationId: string, contactId: string, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .delete(contacts)
        .where(and(eq(contacts.organizationId, organizationId), eq(contacts.id, contactId)))
        .returning({ id: contacts.id });
      return rows.length > 0;
    },

    /**
     * Whether the organization has this contact. With `lock`, inside a transaction, it also waits
     * for the turns linking a conversation to the contact and holds off new ones until the end.
     */
    async hasContact(
      organizationId: string,
      contactId: string,
      options: { lock?: boolean } = {},
      tx: Db = db,
    ): Promise<boolean> {
      const query = tx
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.organizationId, organizationId), eq(contacts.id, contactId)));
      const rows = options.lock ? await query.for("update") : await query;
      return rows.length > 0;
    },

    /** The organizations that keep conversations for a limited time, with their limit. */
    async organizationsWithRetention(tx: Db = db) {
      return tx
        .select({ id: organizations.id, days: organizations.conversationRetentionDays })
        .from(organizations)
        .where(isNotNull(organizations.conversationRetentionDays))
        .orderBy(organizations.id);
    },

    /** Sets how many days of inactivity a conversation survives (null: forever); null if no such organization. */
    async setRetentionDays(organizationId: string, days: number | null, tx: Db = db) {
      const [row] = await tx
        .update(organizations)
        .set({ conversationRetentionDays: days, updatedAt: new Date() })
        .where(eq(organizations.id, organizationId))
        .returning({
          id: organizations.id,
          name: organizations.name,
          conversationRetentionDays: organizations.conversationRetentionDays,
        });
      return row ?? null;
    },
  };
}

export type RetentionRepo = ReturnType<typeof createRetentionRepo>;
