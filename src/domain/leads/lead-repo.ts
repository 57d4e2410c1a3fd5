import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { leads } from "../../db/schema/index.ts";

export type LeadRow = typeof leads.$inferSelect;

export function createLeadRepo(db: Db) {
  return {
    async insert(row: typeof leads.$inferInsert): Promise<LeadRow> {
      const [inserted] = await db.insert(leads).values(row).returning();
      return inserted!;
    },

    async findById(leadId: string): Promise<LeadRow | null> {
      const [row] = await db.select().from(leads).where(eq(leads.id, leadId));
      return row ?? null;
    },
  };
}

export type LeadRepo = ReturnType<typeof createLeadRepo>;
