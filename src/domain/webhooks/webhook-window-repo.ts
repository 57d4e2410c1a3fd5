import { and, desc, eq, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type WindowOptions, webhookWindows } from "../../db/schema/index.ts";

export type WebhookWindowRow = typeof webhookWindows.$inferSelect;

const afterMs = (ms: number) =>
  sql`now() + (${Math.round(ms)}::integer * interval '1 millisecond')`;

export function createWebhookWindowRepo(db: Db) {
  return {
    /**
     * Adds a message to the conversation's open window, or opens one; either way the deadline
     * becomes now + delay (database clock, shared by every process). One statement, so two API
     * processes adding to the same conversation at once still end with one window.
     */
    async addMessage(
      input: {
        id: string;
        organizationId: string;
        agentId: string;
        conversationId: string;
        webhookUrl: string;
        messageId: string;
        options: WindowOptions;
        apiKeyId: string | null;
        delayMs: number;
      },
      tx: Db = db,
    ): Promise<{ id: string; deadline: Date }> {
      const [row] = await tx
        .insert(webhookWindows)
        .values({
          id: input.id,
          organizationId: input.organizationId,
          agentId: input.agentId,
          conversationId: input.conversationId,
          webhookUrl: input.webhookUrl,
          deadline: afterMs(input.delayMs) as unknown as Date,
          messageIds: [input.messageId],
          options: input.options,
          apiKeyId: input.apiKeyId,
        })
        .onConflictDoUpdate({
          target: webhookWindows.conversationId,
          targetWhere: sql`${webhookWindows.state} = 'open'`,
          set: {
            deadline: sql`excluded.deadline`,
            messageIds: sql`${webhookWindows.messageIds} || excluded.message_ids`,
            webhookUrl: sql`excluded.webhook_url`,
            options: sql`excluded.options`,
            apiKeyId: sql`excluded.api_key_id`,
          },
        })
        .returning({ id: webhookWindows.id, deadline: webhookWindows.deadline });
      return row!;
    },

    /**
     * Takes a window to answer it: only once its deadline has passed, or when the worker that
     * took it died (its lease ran out). Returns null when there is nothing to do (yet).
     */
    async claim(
      organizationId: string,
      windowId: string,
      leaseMs: number,
      tx: Db = db,
    ): Promise<WebhookWindowRow | null> {
      const [row] = await tx
        .update(webhookWindows)
        .set({ state: "answering", leaseUntil: afterMs(leaseMs) as unknown as Date })
        .where(
          and(
            eq(webhookWindows.organizationId, organizationId),
            eq(webhookWindows.id, windowId),
            or(
              and(eq(webhookWindows.state, "open"), lte(webhookWindows.deadline, sql`now()`)),
              and(eq(webhookWindows.state, "answering"), lt(webhookWindows.leaseUntil, sql`now()`)),
            ),
          ),
        )
        .returning();
      return row ?? null;
    },

    async findById(
      organizationId: string,
      windowId: string,
      tx: Db = db,
    ): Promise<WebhookWindowRow | null> {
      const [row] = await tx
        .select()
        .from(webhookWindows)
        .where(
          and(eq(webhookWindows.organizationId, organizationId), eq(webhookWindows.id, windowId)),
        );
      return row ?? null;
    },

    /** Where conversational mode last sent this conversation's answers, if it ever did. */
    async latestWebhookUrl(
      organizationId: string,
      conversationId: string,
      tx: Db = db,
    ): Promise<string | null> {
      const [row] = await tx
        .select({ url: webhookWindows.webhookUrl })
        .from(webhookWindows)
        .where(
          and(
            eq(webhookWindows.organizationId, organizationId),
            eq(webhookWindows.conversationId, conversationId),
          ),
        )
        .orderBy(desc(webhookWindows.createdAt))
        .limit(1);
      return row?.url ?? null;
    },

    /** Lets another worker take a window at once after this one failed to answer it. */
    async release(organizationId: string, windowId: string, tx: Db = db): Promise<void> {
      await tx
        .update(webhookWindows)
        .set({ leaseUntil: sql`now()` as unknown as Date })
        .where(
          and(
            eq(webhookWindows.organizationId, organizationId),
            eq(webhookWindows.id, windowId),
            eq(webhookWindows.state, "answering"),
          ),
        );
    },

    /**
     * Closes a window with the delivery that carries its answer (or its error); with none when
     * a person handles the conversation and nothing is owed.
     */
    async markAnswered(
      organizationId: string,
      windowId: string,
      deliveryId: string | null,
      tx: Db = db,
    ): Promise<boolean> {
      const rows = await tx
        .update(webhookWindows)
        .set({
          state: "answered",
          deliveryId,
          leaseUntil: null,
          closedAt: sql`now()` as unknown as Date,
        })
        .where(
          and(
            eq(webhookWindows.organizationId, organizationId),
            eq(webhookWindows.id, windowId),
            eq(webhookWindows.state, "answering"),
          ),
        )
        .returning({ id: webhookWindows.id });
      return rows.length === 1;
    },
  };
}

export type WebhookWindowRepo = ReturnType<typeof createWebhookWindowRepo>;
