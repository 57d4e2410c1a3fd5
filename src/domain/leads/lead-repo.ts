import { eq, getTableColumns, type Placeholder, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { leads } from "../../db/schema/index.ts";

export type LeadRow = typeof leads.$inferSelect;
export type NewLead = Omit<typeof leads.$inferInsert, "createdAt">;

type LeadColumn = keyof NewLead;

/** Every column but the creation time (the database's default); each is a placeholder below. */
const LEAD_COLUMNS = Object.keys(getTableColumns(leads)).filter(
  (column) => column !== "createdAt",
) as LeadColumn[];

const placeholders = Object.fromEntries(
  LEAD_COLUMNS.map((column) => [column, sql.placeholder(column)]),
) as { [Column in LeadColumn]: Placeholder<Column> };

export function createLeadRepo(db: Db) {
  // Lead capture is the hottest write of the site listener: the INSERT is built once and, on
  // PostgreSQL, prepared once per connection, instead of being rebuilt for every form post.
  const insertLead = db.insert(leads).values(placeholders).prepare("insert_lead");

  return {
    async insert(row: NewLead): Promise<void> {
      await insertLead.execute(
        Object.fromEntries(LEAD_COLUMNS.map((column) => [column, row[column] ?? null])),
      );
    },

    async findById(leadId: string): Promise<LeadRow | null> {
      const [row] = await db.select().from(leads).where(eq(leads.id, leadId));
      return row ?? null;
    },
  };
}

export type LeadRepo = ReturnType<typeof createLeadRepo>;
