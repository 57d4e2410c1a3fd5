import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { webhookDeliveries, webhookDeliveryAttempts } from "../../db/schema/index.ts";

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewWebhookDeliveryRow = typeof webhookDeliveries.$inferInsert;
export type WebhookAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
export type NewWebhookAttemptRow = typeof webhookDeliveryAttempts.$inferInsert;

/** Where a delivery goes after an attempt. */
export type AttemptResult =
  | { state: "delivered" }
  | { state: "retrying"; nextAttemptAt: Date; lastError: string }
  | { state: "failed"; lastError: string };

export function createWebhookDeliveryRepo(db: Db) {
  return {
    async insert(row: NewWebhookDeliveryRow, tx: Db = db): Promise<WebhookDeliveryRow> {
      const [inserted] = await tx.insert(webhookDeliveries).values(row).returning();
      return inserted!;
    },

    async findById(
      organizationId: string,
      deliveryId: string,
      tx: Db = db,
    ): Promise<WebhookDeliveryRow | null> {
      const [row] = await tx
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.organizationId, organizationId),
            eq(webhookDeliveries.id, deliveryId),
          ),
        );
      return row ?? null;
    },

    /**
     * Takes attempt number `attempt` of a delivery: when the previous attempt is done and the
     * retry is due, or when the worker that started this attempt died (its lease ran out). A
     * compare-and-set on the attempt count, so a duplicated job can never send twice.
     */
    async claimAttempt(
      organizationId: string,
      deliveryId: string,
      attempt: number,
      leaseMs: number,
      tx: Db = db,
    ): Promise<WebhookDeliveryRow | null> {
      const [row] = await tx
        .update(webhookDeliveries)
        .set({
          state: "sending",
          attemptCount: attempt,
          leaseUntil:
            sql`now() + (${Math.round(leaseMs)}::integer * interval '1 millisecond')` as unknown as Date,
          updatedAt: sql`now()` as unknown as Date,
        })
        .where(
          and(
            eq(webhookDeliveries.organizationId, organizationId),
            eq(webhookDeliveries.id, deliveryId),
            or(
              and(
                eq(webhookDeliveries.attemptCount, attempt - 1),
                inArray(webhookDeliveries.state, ["pending", "retrying"]),
                lte(webhookDeliveries.nextAttemptAt, sql`now()`),
              ),
              and(
                eq(webhookDeliveries.attemptCount, attempt),
                eq(webhookDeliveries.state, "sending"),
                lt(webhookDeliveries.leaseUntil, sql`now()`),
              ),
            ),
          ),
        )
        .returning();
      return row ?? null;
    },

    /** Records an attempt and moves the delivery on, in one transaction. */
    async finishAttempt(
      attempt: NewWebhookAttemptRow,
      result: AttemptResult,
      tx: Db = db,
    ): Promise<void> {
      await tx.transaction(async (inner) => {
        await inner
          .insert(webhookDeliveryAttempts)
          .values(attempt)
          .onConflictDoNothing({
            target: [webhookDeliveryAttempts.deliveryId, webhookDeliveryAttempts.attempt],
          });
        await inner
          .update(webhookDeliveries)
          .set({
            state: result.state,
            leaseUntil: null,
            updatedAt: sql`now()` as unknown as Date,
            ...(result.state === "delivered"
              ? { deliveredAt: sql`now()` as unknown as Date, lastError: null }
              : { lastError: result.lastError }),
            ...(result.state === "retrying" ? { nextAttemptAt: result.nextAttemptAt } : {}),
          })
          .where(
            and(
              eq(webhookDeliveries.organizationId, attempt.organizationId),
              eq(webhookDeliveries.id, attempt.deliveryId),
              eq(webhookDeliveries.state, "sending"),
              eq(webhookDeliveries.attemptCount, attempt.attempt),
            ),
          );
      });
    },

    /**
     * Deliveries whose attempt is overdue by more than `graceMs`: their job was lost (the process
     * died between committing a delivery and queueing its job), or never made.
     */
    async overdue(graceMs: number, limit: number, tx: Db = db) {
      return tx
        .select({
          id: webhookDeliveries.id,
          organizationId: webhookDeliveries.organizationId,
          attemptCount: webhookDeliveries.attemptCount,
        })
        .from(webhookDeliveries)
        .where(
          and(
            inArray(webhookDeliveries.state, ["pending", "retrying"]),
            lt(
              webhookDeliveries.nextAttemptAt,
              sql`now() - make_interval(secs => ${graceMs / 1000})`,
            ),
          ),
        )
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(limit);
    },

    /** The deliveries of a conversation, oldest first, each with its attempts in order. */
    async listForConversation(organizationId: string, conversationId: string, tx: Db = db) {
      const deliveries = await tx
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.organizationId, organizationId),
            eq(webhookDeliveries.conversationId, conversationId),
            isNull(webhookDeliveries.subscriptionId),
          ),
        )
        .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
      if (deliveries.length === 0) return [];
      const attempts = await tx
        .select()
        .from(webhookDeliveryAttempts)
        .where(
          and(
            eq(webhookDeliveryAttempts.organizationId, organizationId),
            inArray(
              webhookDeliveryAttempts.deliveryId,
              deliveries.map((delivery) => delivery.id),
            ),
          ),
        )
        .orderBy(asc(webhookDeliveryAttempts.attempt));
      return deliveries.map((delivery) => ({
        delivery,
        attempts: attempts.filter((attempt) => attempt.deliveryId === delivery.id),
      }));
    },
  };
}

export type WebhookDeliveryRepo = ReturnType<typeof createWebhookDeliveryRepo>;
