import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { channels } from "../../db/schema/index.ts";

export type ChannelRow = typeof channels.$inferSelect;
type NewChannelRow = typeof channels.$inferInsert;

/** The channels: one agent's connection to one platform account. */
export function createChannelRepo(db: Db) {
  return {
    async insert(row: NewChannelRow, tx: Db = db): Promise<ChannelRow> {
      const [inserted] = await tx.insert(channels).values(row).returning();
      return inserted!;
    },

    async findById(organizationId: string, id: string, tx: Db = db): Promise<ChannelRow | null> {
      const [row] = await tx
        .select()
        .from(channels)
        .where(and(eq(channels.organizationId, organizationId), eq(channels.id, id)));
      return row ?? null;
    },

    /** The channel an inbound request names: its URL carries only the channel's id. */
    async findForInbound(id: string, tx: Db = db): Promise<ChannelRow | null> {
      const [row] = await tx.select().from(channels).where(eq(channels.id, id));
      return row ?? null;
    },

    /** Whether any enabled channel of this type exists, in any organization. */
    async anyEnabled(type: ChannelRow["type"], tx: Db = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: channels.id })
        .from(channels)
        .where(and(eq(channels.type, type), eq(channels.enabled, true)))
        .limit(1);
      return row !== undefined;
    },

    async listOfAgent(organizationId: string, agentId: string, tx: Db = db) {
      return tx
        .select()
        .from(channels)
        .where(and(eq(channels.organizationId, organizationId), eq(channels.agentId, agentId)))
        .orderBy(asc(channels.createdAt), asc(channels.id));
    },

    async update(
      organizationId: string,
      id: string,
      changes: Partial<
        Pick<ChannelRow, "name" | "enabled" | "config" | "credentials" | "status" | "lastError">
      >,
      tx: Db = db,
    ): Promise<ChannelRow | null> {
      const [row] = await tx
        .update(channels)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(eq(channels.organizationId, organizationId), eq(channels.id, id)))
        .returning();
      return row ?? null;
    },

    async delete(organizationId: string, id: string, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .delete(channels)
        .where(and(eq(channels.organizationId, organizationId), eq(channels.id, id)))
        .returning({ id: channels.id });
      return rows.length === 1;
    },

    /** Notes that the platform reached us; written at most once a second per channel. */
    async touch(id: string, tx: Db = db): Promise<void> {
      await tx
        .update(channels)
        .set({ lastEventAt: sql`now()` as unknown as Date })
        .where(
          and(
            eq(channels.id, id),
            or(
              isNull(channels.lastEventAt),
              lt(channels.lastEventAt, sql`now() - interval '1 second'`),
            ),
          ),
        );
    },

    /** What the platform said when it refused us for good (status error), or null to clear it. */
    async recordPlatformError(
      organizationId: string,
      id: string,
      error: string | null,
      tx: Db = db,
    ): Promise<void> {
      await tx
        .update(channels)
        .set({ status: error === null ? "active" : "error", lastError: error })
        .where(
          and(
            eq(channels.organizationId, organizationId),
            eq(channels.id, id),
            // Clearing writes only when there is something to clear (most sends succeed).
            error === null ? eq(channels.status, "error") : undefined,
          ),
        );
    },
  };
}

export type ChannelRepo = ReturnType<typeof createChannelRepo>;
