import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { mailMailboxes } from "../../db/schema/index.ts";

/** A mailbox this process now watches, with where its last watcher stopped. */
export type ClaimedMailbox = {
  channelId: string;
  organizationId: string;
  source: string;
  uidValidity: number | null;
  lastUid: number;
};

const afterMs = (ms: number) =>
  sql`now() + (${Math.round(ms)}::integer * interval '1 millisecond')`;

/**
 * The IMAP mailboxes of mail channels: where each one's reading stands (UIDVALIDITY, last UID)
 * and which process holds it. A lease, not a lock: a process that dies loses its mailboxes when
 * their lease runs out, and another takes them over from the last UID it recorded.
 */
export function createMailMailboxRepo(db: Db) {
  return {
    /**
     * Takes up to `limit` mailboxes nobody holds, of enabled mail channels with IMAP (their
     * config names a mailbox), and not waiting after a failure. Every process may ask at once:
     * each mailbox goes to one.
     */
    async claim(holder: string, leaseMs: number, limit: number): Promise<ClaimedMailbox[]> {
      if (limit <= 0) return [];
      const result = await db.execute(sql`
        insert into mail_mailboxes (channel_id, organization_id, source, lease_holder, lease_until)
        select c.id, c.organization_id, '', ${holder}, ${afterMs(leaseMs)}
        from channels c left join mail_mailboxes m on m.channel_id = c.id
        where c.type = 'mail' and c.enabled and c.config ? 'imapMailbox'
          and (m.channel_id is null
            or ((m.lease_until is null or m.lease_until < now())
              and (m.retry_at is null or m.retry_at <= now())))
        order by c.id
        limit ${limit}
        on conflict (channel_id) do update set
          lease_holder = excluded.lease_holder, lease_until = excluded.lease_until,
          updated_at = now()
        where mail_mailboxes.lease_until is null or mail_mailboxes.lease_until < now()
        returning channel_id, organization_id, source, uid_validity, last_uid`);
      return rowsOf<{
        channel_id: string;
        organization_id: string;
        source: string;
        uid_validity: string | number | null;
        last_uid: string | number;
      }>(result).map((row) => ({
        channelId: row.channel_id,
        organizationId: row.organization_id,
        source: row.source,
        uidValidity: row.uid_validity === null ? null : Number(row.uid_validity),
        lastUid: Number(row.last_uid),
      }));
    },

    /** Extends the leases this process holds; returns the channels whose lease it still had. */
    async renew(holder: string, channelIds: readonly string[], leaseMs: number) {
      if (channelIds.length === 0) return new Set<string>();
      const rows = await db
        .update(mailMailboxes)
        .set({ leaseUntil: afterMs(leaseMs) as unknown as Date })
        .where(
          and(
            eq(mailMailboxes.leaseHolder, holder),
            inArray(mailMailboxes.channelId, [...channelIds]),
          ),
        )
        .returning({ channelId: mailMailboxes.channelId });
      return new Set(rows.map((row) => row.channelId));
    },

    /** Records how far the mailbox was read, while this process holds it. */
    async advance(
      organizationId: string,
      channelId: string,
      holder: string,
      state: { source: string; uidValidity: number; lastUid: number },
    ): Promise<boolean> {
      const rows = await db
        .update(mailMailboxes)
        .set({ ...state, retryAt: null, updatedAt: new Date() })
        .where(
          and(
            eq(mailMailboxes.organizationId, organizationId),
            eq(mailMailboxes.channelId, channelId),
            eq(mailMailboxes.leaseHolder, holder),
          ),
        )
        .returning({ channelId: mailMailboxes.channelId });
      return rows.length === 1;
    },

    /** Lets the mailbox go: at once, or (after a failure) not before `retryAt`. */
    async release(channelId: string, holder: string, retryAt: Date | null = null): Promise<void> {
      await db
        .update(mailMailboxes)
        .set({ leaseHolder: null, leaseUntil: null, ...(retryAt ? { retryAt } : {}) })
        .where(and(eq(mailMailboxes.channelId, channelId), eq(mailMailboxes.leaseHolder, holder)));
    },
  };
}

export type MailMailboxRepo = ReturnType<typeof createMailMailboxRepo>;
