import { and, asc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import {
  type ChannelSender,
  channelEvents,
  channelSends,
  channelThreads,
  type DeliveryStatus,
  type InboundPayload,
  messages,
  type ReplyTarget,
} from "../../db/schema/index.ts";
import type { StatementPart } from "../../db/statement-parts.ts";

export type ChannelThreadRow = typeof channelThreads.$inferSelect;
export type ChannelEventRow = typeof channelEvents.$inferSelect;
type ChannelSendRow = typeof channelSends.$inferSelect;
/** A queued outbound message with its text, and who it is from. */
export type PendingSend = ChannelSendRow & {
  text: string;
  conversationId: string;
  byOperator: boolean;
  /** The AI's answer that itself handed the conversation to a person. */
  handsOver: boolean;
};

/** A lane's job this far past its time was lost with its process: the next message queues one. */
const LOST_JOB_SECONDS = 30;

const afterMs = (ms: number) =>
  sql`now() + (${Math.round(ms)}::integer * interval '1 millisecond')`;

/**
 * The lanes of channel conversations: threads (one per platform chat, leased by the worker that
 * answers in it), the customer messages received (deduplicated by the platform's id) and the
 * outbound messages with their delivery.
 */
export function createChannelLaneRepo(db: Db) {
  return {
    /**
     * Stores a received message in one statement: its thread (made on first contact, its
     * customer's latest message time moved on), the event unless the platform's id was seen
     * before, and the channel's last event time. Returns the thread's id, whether the message
     * is new, and whether the lane needs a job: none is queued yet (or the queued one is long
     * overdue, lost with a process), so one burst of messages makes one job.
     */
    async receive(input: {
      id: string;
      threadId: string;
      organizationId: string;
      channelId: string;
      threadKey: string;
      replyTo: ReplyTarget;
      sender: ChannelSender;
      platformMessageId: string;
      payload: InboundPayload;
      sentAt: Date;
      platformOrder: number | null;
      delayMs: number;
    }): Promise<{ threadId: string; isNew: boolean; turnDueAt: Date | null }> {
      // As stored (milliseconds), so the returned time compares equal to it.
      const due = sql`(now() + ${Math.round(input.delayMs)}::integer * interval '1 millisecond')::timestamptz(3)`;
      const result = await db.execute(sql`
        with thread as (
          insert into channel_threads (id, organization_id, channel_id, thread_key, reply_to,
            sender, last_inbound_at, turn_due_at)
          values (${input.threadId}, ${input.organizationId}, ${input.channelId},
            ${input.threadKey}, ${JSON.stringify(input.replyTo)}::jsonb,
            ${JSON.stringify(input.sender)}::jsonb, ${input.sentAt.toISOString()}::timestamptz,
            ${due})
          on conflict (channel_id, thread_key) do update set
            sender = excluded.sender,
            -- An answer goes to the latest message (a mail's In-Reply-To), not an older one late.
            reply_to = case when excluded.last_inbound_at >= channel_threads.last_inbound_at
              then excluded.reply_to else channel_threads.reply_to end,
            last_inbound_at = greatest(channel_threads.last_inbound_at, excluded.last_inbound_at),
            turn_due_at = case
              when channel_threads.turn_due_at is null
                or channel_threads.turn_due_at < now() - ${sql.raw(`interval '${LOST_JOB_SECONDS} seconds'`)}
              then excluded.turn_due_at
              else channel_threads.turn_due_at
            end
          returning id, turn_due_at, turn_due_at = ${due} as scheduled
        ),
        event as (
          insert into channel_events (id, organization_id, channel_id, thread_id,
            platform_message_id, payload, sent_at, platform_order)
          select ${input.id}, ${input.organizationId}, ${input.channelId}, thread.id,
            ${input.platformMessageId}, ${JSON.stringify(input.payload)}::jsonb,
            ${input.sentAt.toISOString()}::timestamptz, ${input.platformOrder}::bigint
          from thread
          on conflict (channel_id, platform_message_id) do nothing
          returning id
        ),
        touched as (
          update channels set last_event_at = now()
          where id = ${input.channelId}
            and (last_event_at is null or last_event_at < now() - interval '1 second')
          returning id
        )
        select thread.id as thread_id, exists (select from event) as is_new,
          case when thread.scheduled then thread.turn_due_at end as turn_due_at,
          (select count(*) from touched) as touched
        from thread`);
      const [row] = rowsOf<{
        thread_id: string;
        is_new: boolean;
        turn_due_at: string | Date | null;
      }>(result);
      return {
        threadId: row!.thread_id,
        isNew: row!.is_new,
        turnDueAt: row!.turn_due_at === null ? null : new Date(row!.turn_due_at),
      };
    },

    /** Notes the time of the lane's next queued job (a run that will look again later). */
    async scheduleTurn(organizationId: string, threadId: string, at: Date): Promise<void> {
      await db
        .update(channelThreads)
        .set({ turnDueAt: at })
        .where(
          and(eq(channelThreads.organizationId, organizationId), eq(channelThreads.id, threadId)),
        );
    },

    /**
     * Takes the thread's lane: no other worker answers or sends in it until the lease ends or
     * is released. Null when another worker holds it.
     */
    async claim(
      organizationId: string,
      threadId: string,
      leaseMs: number,
    ): Promise<ChannelThreadRow | null> {
      const [row] = await db
        .update(channelThreads)
        // The queued job is running: a message arriving from now on queues the next one.
        .set({ leaseUntil: afterMs(leaseMs) as unknown as Date, turnDueAt: null })
        .where(
          and(
            eq(channelThreads.organizationId, organizationId),
            eq(channelThreads.id, threadId),
            or(
              sql`${channelThreads.leaseUntil} is null`,
              lt(channelThreads.leaseUntil, sql`now()`),
            ),
          ),
        )
        .returning();
      return row ?? null;
    },

    async findThread(organizationId: string, threadId: string): Promise<ChannelThreadRow | null> {
      const [row] = await db
        .select()
        .from(channelThreads)
        .where(
          and(eq(channelThreads.organizationId, organizationId), eq(channelThreads.id, threadId)),
        );
      return row ?? null;
    },

    /** The lane a conversation's messages go out through, if it came from a channel. */
    async threadOfConversation(
      organizationId: string,
      conversationId: string,
    ): Promise<ChannelThreadRow | null> {
      const [row] = await db
        .select()
        .from(channelThreads)
        .where(
          and(
            eq(channelThreads.organizationId, organizationId),
            eq(channelThreads.conversationId, conversationId),
          ),
        );
      return row ?? null;
    },

    async release(organizationId: string, threadId: string): Promise<void> {
      await db
        .update(channelThreads)
        .set({ leaseUntil: null })
        .where(
          and(eq(channelThreads.organizationId, organizationId), eq(channelThreads.id, threadId)),
        );
    },

    /** The thread's messages not yet answered, in the order they were written. */
    async unanswered(organizationId: string, threadId: string): Promise<ChannelEventRow[]> {
      return db
        .select()
        .from(channelEvents)
        .where(
          and(
            eq(channelEvents.organizationId, organizationId),
            eq(channelEvents.threadId, threadId),
            inArray(channelEvents.state, ["received", "recorded"]),
          ),
        )
        .orderBy(
          asc(channelEvents.sentAt),
          sql`${channelEvents.platformOrder} asc nulls last`,
          asc(channelEvents.receivedAt),
          asc(channelEvents.id),
        );
    },

    /**
     * Marks received events recorded as the conversation's messages (their ids are the events'
     * ids) and links the thread to the conversation: a part of the turn's statement, over its
     * `conversation` CTE.
     */
    recordedPart(threadId: string, eventIds: readonly string[]): StatementPart<number> {
      return {
        ctes: sql`
          events_recorded as (
            update channel_events set state = 'recorded', message_id = id, payload = null
            where thread_id = ${threadId} and state = 'received'
              and id = any(${sql.param([...eventIds])}::text[])
            returning id
          ),
          thread_linked as (
            update channel_threads set conversation_id = (select id from conversation)
            where id = ${threadId}
            returning id
          )`,
        row: sql`select (select count(*) from events_recorded)::integer as events_recorded,
          (select count(*) from thread_linked)::integer as thread_linked`,
        read: (row) => Number(row?.events_recorded ?? 0),
      };
    },

    /** Ends events without an answer (nothing could be said), with the reason. */
    async fail(
      organizationId: string,
      eventIds: readonly string[],
      error: string,
      tx: Db = db,
    ): Promise<void> {
      if (eventIds.length === 0) return;
      await tx
        .update(channelEvents)
        .set({ state: "failed", error, payload: null })
        .where(
          and(
            eq(channelEvents.organizationId, organizationId),
            inArray(channelEvents.id, [...eventIds]),
            inArray(channelEvents.state, ["received", "recorded"]),
          ),
        );
    },

    /** Closes answered events; false when another worker answered them first. */
    async markAnswered(
      organizationId: string,
      eventIds: readonly string[],
      tx: Db = db,
    ): Promise<boolean> {
      const rows = await tx
        .update(channelEvents)
        .set({ state: "answered" })
        .where(
          and(
            eq(channelEvents.organizationId, organizationId),
            inArray(channelEvents.id, [...eventIds]),
            eq(channelEvents.state, "recorded"),
          ),
        )
        .returning({ id: channelEvents.id });
      return rows.length === eventIds.length;
    },

    async queueSends(
      rows: Array<{
        messageId: string;
        organizationId: string;
        channelId: string;
        threadId: string;
        createdAt: Date;
      }>,
      tx: Db = db,
    ): Promise<void> {
      if (rows.length > 0) await tx.insert(channelSends).values(rows);
    },

    /** The thread's outbound messages not yet handed to the platform, oldest first. */
    async pendingSends(organizationId: string, threadId: string): Promise<PendingSend[]> {
      const rows = await db
        .select({
          send: channelSends,
          text: messages.text,
          conversationId: messages.conversationId,
          byOperator: sql<boolean>`${messages.metadata} ? 'operator'`,
          handsOver: sql<boolean>`${messages.metadata} ? 'requestedHuman'`,
        })
        .from(channelSends)
        .innerJoin(messages, eq(messages.id, channelSends.messageId))
        .where(
          and(
            eq(channelSends.organizationId, organizationId),
            eq(channelSends.threadId, threadId),
            eq(channelSends.status, "queued"),
          ),
        )
        .orderBy(asc(channelSends.createdAt), asc(channelSends.messageId));
      return rows.map((row) => ({
        ...row.send,
        text: row.text,
        conversationId: row.conversationId,
        byOperator: row.byOperator,
        handsOver: row.handsOver,
      }));
    },

    async markSent(
      organizationId: string,
      messageId: string,
      platformMessageId: string,
    ): Promise<void> {
      await db
        .update(channelSends)
        .set({
          status: "sent",
          platformMessageId,
          error: null,
          attemptCount: sql`${channelSends.attemptCount} + 1`,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(channelSends.organizationId, organizationId),
            eq(channelSends.messageId, messageId),
          ),
        );
    },

    /** A failed attempt: tried again at `retryAt`, or failed for good when it is null. */
    async markAttemptFailed(
      organizationId: string,
      messageId: string,
      error: string,
      retryAt: Date | null,
    ): Promise<void> {
      await db
        .update(channelSends)
        .set({
          ...(retryAt === null ? { status: "failed" as const } : { nextAttemptAt: retryAt }),
          error,
          attemptCount: sql`${channelSends.attemptCount} + 1`,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(channelSends.organizationId, organizationId),
            eq(channelSends.messageId, messageId),
          ),
        );
    },

    /**
     * A platform's status callback: moves the delivery forward (sent → delivered → read), or
     * to failed; a late "delivered" never undoes "read".
     */
    async updateDelivery(
      channelId: string,
      platformMessageId: string,
      status: Exclude<DeliveryStatus, "queued">,
      error: string | undefined,
    ): Promise<void> {
      const rank = { sent: 1, delivered: 2, read: 3, failed: 4 } as const;
      await db
        .update(channelSends)
        .set({ status, error: error ?? null, updatedAt: new Date() })
        .where(
          and(
            eq(channelSends.channelId, channelId),
            eq(channelSends.platformMessageId, platformMessageId),
            lt(
              sql`case ${channelSends.status} when 'queued' then 0 when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 4 end`,
              rank[status],
            ),
          ),
        );
    },
  };
}

export type ChannelLaneRepo = ReturnType<typeof createChannelLaneRepo>;
