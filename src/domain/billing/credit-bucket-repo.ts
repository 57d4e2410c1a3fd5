import type { Db } from "../../db/client.ts";
import { creditBuckets } from "../../db/schema/index.ts";

export type CreditBucketRow = typeof creditBuckets.$inferSelect;

export function createCreditBucketRepo(db: Db) {
  return {
    async insert(row: typeof creditBuckets.$inferInsert, tx: Db = db): Promise<CreditBucketRow> {
      const [inserted] = await tx.insert(creditBuckets).values(row).returning();
      return inserted!;
    },
  };
}

export type CreditBucketRepo = ReturnType<typeof createCreditBucketRepo>;
