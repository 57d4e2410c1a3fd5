import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  conversations,
  eventSubscriptions,
  users,
  webhookDeliveries,
} from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";

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
     * One delivery per event and subscription that asked for it, in the caller's transaction.
     * The subscriptions are read first by one indexed statement (an organization without any,
     * the common case, costs that read and nothing else); the deliveries are then written in
     * one INSERT. Returns the deliveries made.
     */
    async fanOut(
      events: readonly SubscribedEvent[],
      tx: Db = db,
    ): Promise<{ id: string; organizationId: string }[]> {
      if (events.length === 0) return [];
      const organizationIds = [
        ...new Set(events.flatMap((event) => (event.organizationId ? [event.organizationId] : []))),
      ];
      const instanceWide = events.some((event) => event.organizationId === null);
      const subscriptions = await tx
        .select({
          id: eventSubscriptions.id,
          organizationId: eventSubscriptions.organizationId,
          url: eventSubscriptions.url,
          events: eventSubscriptions.events,
          byAdministrator: sql<boolean>`coalesce(${users.instanceAdmin}, false)`,
        })
        .from(eventSubscriptions)
        .leftJoin(users, eq(users.id, eventSubscriptions.createdByUserId))
        .where(
          or(
            organizationIds.length > 0
              ? inArray(eventSubscriptions.organizationId, organizationIds)
              : undefined,
            instanceWide ? sql`'lead.created' = any(${eventSubscriptions.events})` : undefined,
          ),
        );
      if (subscriptions.length === 0) return [];
      const rows = events.flatMap((event) =>
        subscriptions
          .filter(
            (subscription) =>
              subscription.events.includes(event.name) &&
              (event.organizationId === null ||
                event.organizationId === subscription.organizationId) &&
              (!event.administratorsOnly || subscription.byAdministrator),
          )
          .map((subscription) => ({
            id: newId(),
            organizationId: subscription.organizationId,
            agentId: event.agentId,
            conversationId: event.conversationId
              ? sql`(select ${conversations.id} from ${conversations}
                  where ${conversations.organizationId} = ${subscription.organizationId}
                    and ${conversations.agentId} = ${event.agentId}
                    and ${conversations.externalId} = ${event.conversationId})`
              : null,
            subscriptionId: subscription.id,
            event: event.name,
            url: subscription.url,
            payloadStatus: "success" as const,
            payload: event.payload,
          })),
      );
      if (rows.length === 0) return [];
      return tx
        .insert(webhookDeliveries)
        .values(rows)
        .returning({ id: webhookDeliveries.id, organizationId: webhookDeliveries.organizationId });
    },
  };
}

export type SubscriptionRepo = ReturnType<typeof createSubscriptionRepo>;
