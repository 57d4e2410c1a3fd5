import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client.ts";
import { creditBuckets } from "../../db/schema/index.ts";

export type CreditBucketRow = typeof creditBuckets.$inferSelect;

export function createCreditBucketRepo(db: Db) {
  return {
    async insert(row: typeof creditBuckets.$inferInsert, tx: Db = db): Promise<CreditBucketRow> {
      const [inserted] = await tx.insert(creditBuckets).values(row).returning();
      return inserted!;
    },

    /**
     * Takes up to `amountMicro` from the live buckets, oldest-expiring first (never-expiring
     * last), in one statement; returns what was taken. The caller holds the organization's
     * billing lock, so no other debit runs between the read and the write of this statement;
     * the table's `remaining >= 0` check is the last line of defence.
     */
    async debit(organizationId: string, amountMicro: number, now: Date, tx: Db = db) {
      if (amountMicro <= 0) return 0;
      const result = await tx.execute(sql`
        with ordered as (
          select id, remaining_micro,
            sum(remaining_micro) over (
              order by expires_at asc nulls last, created_at, id
              rows between unbounded preceding and current row
            ) - remaining_micro as before
          from credit_buckets
          where organization_id = ${organizationId}
            and remaining_micro > 0
            and (expires_at is null or expires_at > ${now.toISOString()}::timestamptz)
        ), taken as (
          select id, least(remaining_micro, ${amountMicro}::bigint - before) as take
          from ordered
          where before < ${amountMicro}::bigint
        )
        update credit_buckets as bucket
        set remaining_micro = bucket.remaining_micro - taken.take
        from taken
        where bucket.id = taken.id
        returning taken.take::text as take`);
      return rowsOf<{ take: string }>(result).reduce((sum, row) => sum + Number(row.take), 0);
    },
  };
}

export type CreditBucketRepo = ReturnType<typeof createCreditBucketRepo>;
