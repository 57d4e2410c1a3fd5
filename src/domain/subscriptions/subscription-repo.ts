import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { eventSubscriptions, webhookDeliveries } from "../../db/schema/index.ts";

export type SubscriptionRow = typeof eventSubscriptions.$inferSelect;
export type NewSubscriptionRow = typeof eventSubscriptions.$inferInsert;

/** One event to deliver to every subscription of its organization that asked for it. */
export type SubscribedEvent = {
  /** Null for lead.created: the instance's event, for every organization's administrators. */
  organizationId: string | null;
  name: string;
  /** The agent and the conversation's API id (its externalId); null for lead.created. */
  agentId: string | null;
  conversationId: string | null;
  /** The body every subscription receives, byte for byte on every attempt. */
  payload: string;
  /** lead.created is the instance's, not an organization's: only administrators' subscriptions. */
  administratorsOnly: boolean;
};

export function createSubscriptionRepo(db: Db) {
  return {
    async insert(row: NewSubscriptionRow, tx: Db = db): Promise<SubscriptionRow> {
      const [inserted] = await tx.insert(eventSubscriptions).values(row).returning();
      return inserted!;
    },

    async list(organizationId: string): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(eventSubscriptions)
        .where(eq(eventSubscriptions.organizationId, organizationId))
        .orderBy(desc(eventSubscriptions.createdAt), desc(eventSubscriptions.id));
    },

    async find(organizationId: string, id: string): Promise<SubscriptionRow | null> {
      const [row] = await db
        .select()
        .from(eventSubscriptions)
        .where(
          and(eq(eventSubscriptions.organizationId, organizationId), eq(eventSubscriptions.id, id)),
        );
      return row ?? null;
    },

    /** Deletes the subscription; its deliveries go with it, so a pending retry finds nothing. */
    async delete(organizationId: string, id: string, tx: Db = db): Promise<boolean> {
      const deleted = await tx
        .delete(eventSubscriptions)
        .where(
          and(eq(eventSubscriptions.organizationId, organizationId), eq(eventSubscriptions.id, id)),
        )
        .returning({ id: eventSubscriptions.id });
      return deleted.length > 0;
    },

    /** The subscription's latest deliveries, newest first. */
    async recentDeliveries(organizationId: string, subscriptionId: string, limit: number) {
      return db
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.organizationId, organizationId),
            eq(webhookDeliveries.subscriptionId, subscriptionId),
          ),
        )
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(limit);
    },

    /**
     * One delivery per event and subscription that asked for it, in the caller's transaction:
     * one statement for all the events, which finds nothing (and writes nothing) in an
     * organization without subscriptions. Returns the deliveries made.
     */
    async fanOut(
      events: readonly SubscribedEvent[],
      tx: Db = db,
    ): Promise<{ id: string; organizationId: string }[]> {
      if (events.length === 0) return [];
      const rows = JSON.stringify(
        events.map((event) => ({
          organization_id: event.organizationId,
          name: event.name,
          agent_id: event.agentId,
          conversation_id: event.conversationId,
          payload: event.payload,
          administrators_only: event.administratorsOnly,
        })),
      );
      const result = (await tx.execute(sql`
        insert into webhook_deliveries
          (id, organization_id, agent_id, conversation_id, subscription_id, event, url,
           payload_status, payload)
        select replace(gen_random_uuid()::text, '-', ''), s.organization_id, e.agent_id,
          (select c.id from conversations c
            where c.organization_id = s.organization_id and c.agent_id = e.agent_id
              and c.external_id = e.conversation_id),
          s.id, e.name, s.url, 'success', e.payload
        from jsonb_to_recordset(${rows}::jsonb) as e(organization_id text, name text,
          agent_id text, conversation_id text, payload text, administrators_only boolean)
        join event_subscriptions s
          on (s.organization_id = e.organization_id or e.organization_id is null)
            and e.name = any(s.events)
        where not e.administrators_only or exists (
          select 1 from users u where u.id = s.created_by_user_id and u.instance_admin)
        returning id, organization_id
      `)) as { rows: { id: string; organization_id: string }[] };
      return result.rows.map((row) => ({ id: row.id, organizationId: row.organization_id }));
    },
  };
}

export type SubscriptionRepo = ReturnType<typeof createSubscriptionRepo>;
