import { and, eq, gte, ilike, inArray, lt, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { containsPattern } from "../../db/like-pattern.ts";
import { conversations, messages } from "../../db/schema/index.ts";
import { csvRecordSql, neutralizedFormulaSql } from "../../lib/csv.ts";

export type ExportFilter = {
  organizationId: string;
  agentId: string;
  from?: Date;
  /** Inclusive, unless `toExclusive` (a date-only `to` means the whole day). */
  to?: Date;
  toExclusive?: boolean;
  /** Conversation ids as clients know them (externalId), of this agent. */
  conversationIds?: string[];
  include: "all" | "human" | "agent";
  status: "all" | "RESOLVED" | "UNRESOLVED" | "HUMAN_REQUESTED";
  channel: string;
  search?: string;
  order: "asc" | "desc";
};

/** Where the previous page ended: the exact (microsecond) timestamp as text, and the id. */
export type ExportCursor = { createdAt: string; id: string };

/** A message as one CSV record (see EXPORT_COLUMNS), with its place in the export's order. */
export type ExportRow = { id: string; cursorAt: string; record: string };

export function createConversationExportRepo(db: Db) {
  return {
    /**
     * One keyset page of an agent's sent messages (drafts excluded) in (createdAt, id) order, so
     * an export of any size runs in constant memory and never skips or repeats a message.
     */
    async page(
      filter: ExportFilter,
      after: ExportCursor | null,
      size: number,
    ): Promise<ExportRow[]> {
      const conditions: SQL[] = [
        // Messages carry their conversation's agent, so messages_agent_created_idx (agent_id,
        // created_at, id) delivers each page in order, starting right after the cursor.
        eq(messages.agentId, filter.agentId),
        eq(messages.organizationId, filter.organizationId),
        eq(messages.isDraft, false),
      ];
      if (filter.from) conditions.push(gte(messages.createdAt, filter.from));
      if (filter.to) {
        conditions.push(
          filter.toExclusive
            ? lt(messages.createdAt, filter.to)
            : lte(messages.createdAt, filter.to),
        );
      }
      if (filter.conversationIds) {
        conditions.push(
          inArray(
            messages.conversationId,
            db
              .select({ id: conversations.id })
              .from(conversations)
              .where(
                and(
                  eq(conversations.organizationId, filter.organizationId),
                  inArray(conversations.externalId, filter.conversationIds),
                  eq(conversations.agentId, filter.agentId),
                ),
              ),
          ),
        );
      }
      if (filter.include !== "all") conditions.push(eq(messages.from, filter.include));
      if (filter.search) conditions.push(ilike(messages.text, containsPattern(filter.search)));
      if (filter.status !== "all" || filter.channel !== "all") {
        // A scalar subquery is never turned into a join: one primary-key lookup per message, so
        // the plan cannot start from the conversations and sort all the agent's messages per page.
        const status = filter.status !== "all" ? sql`and c.status = ${filter.status}` : sql``;
        const channel = filter.channel !== "all" ? sql`and c.channel = ${filter.channel}` : sql``;
        conditions.push(
          sql`(select true from ${conversations} c where c.id = ${messages.conversationId}
                 and c.organization_id = ${filter.organizationId} ${status} ${channel})`,
        );
      }
      const ascending = filter.order === "asc";
      if (after) {
        conditions.push(
          ascending
            ? sql`(${messages.createdAt}, ${messages.id}) > (${after.createdAt}::timestamptz, ${after.id})`
            : sql`(${messages.createdAt}, ${messages.id}) < (${after.createdAt}::timestamptz, ${after.id})`,
        );
      }
      const direction = ascending ? sql`asc` : sql`desc`;
      return db.transaction(async (tx) => {
        // PGlite never runs autovacuum, so its tables may have no statistics; without them the
        // planner can prefer a bitmap scan and a sort of every message per page. Forbidding the
        // sort leaves the ordered index scan, whatever the statistics say.
        await tx.execute(sql`select set_config('enable_sort', 'off', true)`);
        return tx
          .select({
            id: messages.id,
            cursorAt: sql<string>`${messages.createdAt}::text`,
            record: sql<string>`${csvRecordSql([
              // The id clients know (a primary-key lookup per row of the page, after the limit).
              sql`(select c.external_id from ${conversations} c where c.id = ${messages.conversationId})`,
              sql`${messages.from}::text`,
              neutralizedFormulaSql(sql`${messages.text}`),
              // toISOString's form: UTC, milliseconds (truncated, as a Date truncates them).
              sql`to_char(${messages.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
            ])}`,
          })
          .from(messages)
          .where(and(...conditions))
          .orderBy(sql`${messages.createdAt} ${direction}`, sql`${messages.id} ${direction}`)
          .limit(size);
      });
    },
  };
}

export type ConversationExportRepo = ReturnType<typeof createConversationExportRepo>;
