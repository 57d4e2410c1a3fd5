import { eq, getTableColumns, type Placeholder, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { leads } from "../../db/schema/index.ts";
import { isRejectedByDatabase } from "../../db/statement-parts.ts";
import { createWriteBatches } from "../../lib/write-batches.ts";

export type LeadRow = typeof leads.$inferSelect;
export type NewLead = Omit<typeof leads.$inferInsert, "createdAt">;

type LeadColumn = keyof NewLead;

/** Every column but the creation time (the database's default); each is a placeholder below. */
const LEAD_COLUMNS = Object.keys(getTableColumns(leads)).filter(
  (column) => column !== "createdAt",
) as LeadColumn[];

/** The most leads one INSERT stores: forms that arrive during an INSERT wait for the next one. */
const MAX_LEADS_PER_INSERT = 32;

/** Row `index` of a multi-row INSERT: a placeholder `<column>_<index>` for each column. */
function rowPlaceholders(index: number) {
  return Object.fromEntries(
    LEAD_COLUMNS.map((column) => [column, sql.placeholder(`${column}_${index}`)]),
  ) as { [Column in LeadColumn]: Placeholder };
}

export function createLeadRepo(db: Db) {
  // Lead capture is the hottest write of the site listener. Forms that arrive while an INSERT is
  // in flight are stored together by the next one (one round trip and one commit for all), and
  // the INSERT for each number of rows is built once and, on PostgreSQL, prepared once per
  // connection, instead of being rebuilt for every form post.
  const inserts: Array<ReturnType<typeof prepareInsert>> = [];
  function prepareInsert(rowCount: number) {
    const rows = Array.from({ length: rowCount }, (_, index) => rowPlaceholders(index));
    return db.insert(leads).values(rows).prepare(`insert_leads_${rowCount}`);
  }

  const batches = createWriteBatches<NewLead>({
    maxBatch: MAX_LEADS_PER_INSERT,
    tookNoEffect: isRejectedByDatabase,
    async write(rows) {
      const values: Record<string, unknown> = {};
      rows.forEach((row, index) => {
        for (const column of LEAD_COLUMNS) values[`${column}_${index}`] = row[column] ?? null;
      });
      inserts[rows.length] ??= prepareInsert(rows.length);
      await inserts[rows.length]!.execute(values);
    },
  });

  return {
    /** Settles when the lead is stored (or its INSERT failed). */
    insert(row: NewLead): Promise<void> {
      return batches.add(row);
    },

    async findById(leadId: string): Promise<LeadRow | null> {
      const [row] = await db.select().from(leads).where(eq(leads.id, leadId));
      return row ?? null;
    },
  };
}

export type LeadRepo = ReturnType<typeof createLeadRepo>;
