import { and, asc, eq, gt, lt, max, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { liveEvents } from "../../db/schema/index.ts";
import type { PublishedEvent } from "./event-types.ts";

export type LiveEventRow = typeof liveEvents.$inferSelect;

/** The live_events table: what services publish, read back by streams and every API process. */
export function createEventRepo(db: Db) {
  return {
    /** Numbered when the transaction commits (the migration's trigger), never before. */
    async insert(events: readonly PublishedEvent[], tx: Db = db): Promise<void> {
      if (events.length === 0) return;
      await tx.insert(liveEvents).values(
        events.map((event) => ({
          organizationId: event.organizationId,
          agentId: event.agentId,
          conversationId: event.conversationId,
          name: event.name,
          data: event.data,
        })),
      );
    },

    /** Events after `afterId`, oldest first: of one organization, or of all (`null`). */
    async after(organizationId: string | null, afterId: number, limit: number) {
      return db
        .select()
        .from(liveEvents)
        .where(
          and(
            gt(liveEvents.id, afterId),
            organizationId === null ? undefined : eq(liveEvents.organizationId, organizationId),
          ),
        )
        .orderBy(asc(liveEvents.id))
        .limit(limit);
    },

    /** The newest event's id; 0 when there is none. */
    async lastId(): Promise<number> {
      const [row] = await db.select({ id: max(liveEvents.id) }).from(liveEvents);
      return row?.id ?? 0;
    },

    /** Deletes the events older than `ageMs`. */
    async prune(ageMs: number): Promise<void> {
      await db
        .delete(liveEvents)
        .where(lt(liveEvents.createdAt, sql`now() - make_interval(secs => ${ageMs / 1000})`));
    },
  };
}

export type EventRepo = ReturnType<typeof createEventRepo>;
