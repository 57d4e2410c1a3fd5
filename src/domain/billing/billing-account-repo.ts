import { eq, type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client.ts";
import { agents } from "../../db/schema/index.ts";
import { executePart, type StatementPart } from "../../db/statement-parts.ts";

export type BillingSettingsRow = {
  billingModel: "credits" | "legacy";
  subscriptionStatus: "active" | "past_due" | "none";
  queryLimit: number | null;
};

export type BucketTotals = {
  /** Buckets ever granted, expired and spent ones included. */
  bucketCount: number;
  /** Granted and remaining micro-credits of the buckets that have not expired. */
  grantedMicro: number;
  remainingMicro: number;
};

export type BillingAccount = { settings: BillingSettingsRow; buckets: BucketTotals };

function accountQuery(organizationId: string, now: Date): SQL {
  const at = now.toISOString();
  return sql`
    select o.billing_model, o.subscription_status, o.query_limit,
      b.bucket_count, b.granted_micro, b.remaining_micro
    from organizations o
    cross join lateral (
      select count(*)::int as bucket_count,
        coalesce(sum(granted_micro) filter (
          where expires_at is null or expires_at > ${at}::timestamptz), 0)::text as granted_micro,
        coalesce(sum(remaining_micro) filter (
          where expires_at is null or expires_at > ${at}::timestamptz), 0)::text as remaining_micro
      from credit_buckets
      where credit_buckets.organization_id = o.id
    ) b
    where o.id = ${organizationId}`;
}

type AccountRow = {
  billing_model: BillingSettingsRow["billingModel"];
  subscription_status: BillingSettingsRow["subscriptionStatus"];
  query_limit: number | null;
  bucket_count: number;
  granted_micro: string;
  remaining_micro: string;
};

/** An organization's account as a statement part (no CTEs; the columns of accountQuery). */
function accountPart(organizationId: string, now: Date): StatementPart<BillingAccount | null> {
  return {
    row: accountQuery(organizationId, now),
    read(raw) {
      if (raw?.billing_model == null) return null;
      const row = raw as AccountRow;
      return {
        settings: {
          billingModel: row.billing_model,
          subscriptionStatus: row.subscription_status,
          queryLimit: row.query_limit === null ? null : Number(row.query_limit),
        },
        buckets: {
          bucketCount: Number(row.bucket_count),
          grantedMicro: Number(row.granted_micro),
          remainingMicro: Number(row.remaining_micro),
        },
      };
    },
  };
}

/** The billing side of an organization: settings and bucket totals read at one moment. */
export function createBillingAccountRepo(db: Db) {
  return {
    /** Settings and bucket totals in one statement (one snapshot). */
    find(organizationId: string, now: Date, tx: Db = db): Promise<BillingAccount | null> {
      return executePart(tx, accountPart(organizationId, now));
    },

    accountPart,

    /**
     * Locks the organization's row until the transaction ends, so the charges of one
     * organization run one after another (balance read, debit and event write never
     * interleave); false when it does not exist. NO KEY UPDATE leaves inserts that reference the
     * organization unblocked. Read the balance in a later statement: a statement that waited
     * for this lock still sees the other tables as they were before it waited.
     */
    async lock(organizationId: string, tx: Db): Promise<boolean> {
      const rows = rowsOf(
        await tx.execute(
          sql`select 1 from organizations where id = ${organizationId} for no key update`,
        ),
      );
      return rows.length > 0;
    },

    async agentBelongsTo(organizationId: string, agentId: string): Promise<boolean> {
      const [row] = await db
        .select({ organizationId: agents.organizationId })
        .from(agents)
        .where(eq(agents.id, agentId));
      return row?.organizationId === organizationId;
    },
  };
}

export type BillingAccountRepo = ReturnType<typeof createBillingAccountRepo>;
