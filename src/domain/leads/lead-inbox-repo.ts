import { type AnyColumn, and, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { leads } from "../../db/schema/index.ts";
import { csvRecordSql, neutralizedFormulaSql } from "../../lib/csv.ts";
import type { PageCursor } from "../../lib/page-cursor.ts";
import type { LeadFilter } from "./lead-inbox-request.ts";
import type { LeadRow } from "./lead-repo.ts";

/** The export's columns, in order: every stored field of a lead. */
export const LEAD_EXPORT_COLUMNS = [
  "id",
  "created_at",
  "name",
  "email",
  "phone",
  "source",
  "post_slug",
  "company",
  "industry",
  "company_size",
  "area",
  "hours_per_week",
  "ai_today",
  "score",
  "level_label",
  "recommended_agent",
  "ip_hash",
  "user_agent",
] as const;

/** Text a visitor typed: neutralized against spreadsheet formulas, null as an empty cell. */
const typed = (column: AnyColumn) => neutralizedFormulaSql(sql`coalesce(${column}, '')`);

const exportCells: SQL[] = [
  sql`${leads.id}`,
  // toISOString's form: UTC, milliseconds (truncated, as a Date truncates them).
  sql`to_char(${leads.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  typed(leads.name),
  typed(leads.email),
  typed(leads.phone),
  typed(leads.source),
  typed(leads.postSlug),
  typed(leads.company),
  typed(leads.industry),
  typed(leads.companySize),
  typed(leads.area),
  typed(leads.hoursPerWeek),
  typed(leads.aiToday),
  sql`coalesce(${leads.score}::text, '')`,
  typed(leads.levelLabel),
  typed(leads.recommendedAgent),
  sql`coalesce(${leads.ipHash}, '')`,
  typed(leads.userAgent),
];

function conditionsOf(filter: LeadFilter, before: PageCursor | null): SQL[] {
  const conditions: SQL[] = [];
  if (filter.since) conditions.push(gte(leads.createdAt, filter.since));
  if (filter.until) conditions.push(lt(leads.createdAt, filter.until));
  if (filter.source) conditions.push(eq(leads.source, filter.source));
  if (filter.email) conditions.push(sql`lower(${leads.email}) = ${filter.email}`);
  if (before) {
    conditions.push(
      sql`(${leads.createdAt}, ${leads.id}) < (${before.createdAt}::timestamptz, ${before.id})`,
    );
  }
  return conditions;
}

/**
 * The operator's side of the leads table: newest first, keyset-paged by (createdAt, id), where
 * `cursorAt` is the exact (microsecond) timestamp as text, since a Date rounds it to the
 * millisecond. Leads belong to the operator, not to an organization.
 */
export function createLeadInboxRepo(db: Db) {
  return {
    async list(
      filter: LeadFilter,
      before: PageCursor | null,
      limit: number,
    ): Promise<(LeadRow & { cursorAt: string })[]> {
      return db
        .select({ lead: leads, cursorAt: sql<string>`${leads.createdAt}::text` })
        .from(leads)
        .where(and(...conditionsOf(filter, before)))
        .orderBy(desc(leads.createdAt), desc(leads.id))
        .limit(limit)
        .then((rows) => rows.map(({ lead, cursorAt }) => ({ ...lead, cursorAt })));
    },

    /** One page of the export, each lead already formatted as a CSV record by the database. */
    async exportPage(
      filter: LeadFilter,
      before: PageCursor | null,
      size: number,
    ): Promise<{ id: string; cursorAt: string; record: string }[]> {
      return db
        .select({
          id: leads.id,
          cursorAt: sql<string>`${leads.createdAt}::text`,
          record: sql<string>`${csvRecordSql(exportCells)}`,
        })
        .from(leads)
        .where(and(...conditionsOf(filter, before)))
        .orderBy(desc(leads.createdAt), desc(leads.id))
        .limit(size);
    },

    async delete(leadId: string): Promise<boolean> {
      const deleted = await db
        .delete(leads)
        .where(eq(leads.id, leadId))
        .returning({ id: leads.id });
      return deleted.length > 0;
    },
  };
}

export type LeadInboxRepo = ReturnType<typeof createLeadInboxRepo>;
