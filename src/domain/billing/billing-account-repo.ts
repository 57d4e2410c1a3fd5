import { and, eq, type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client.ts";
import { agents, creditReservations, organizations } from "../../db/schema/index.ts";
import { executePart, type StatementPart } from "../../db/statement-parts.ts";

type BillingSettingsRow = {
  billingModel: "credits" | "legacy";
  subscriptionStatus: "active" | "past_due" | "none";
  queryLimit: number | null;
};

type BucketTotals = {
  /** Buckets ever granted, expired and spent ones included. */
  bucketCount: number;
  /** Granted and remaining micro-credits of the buckets that have not expired. */
  grantedMicro: number;
  remainingMicro: number;
};

/** What the organization's live reservations (actions running now) hold. */
type HeldTotals = { micro: number; agentMessages: number };

/** A key's monthly budget as a reservation found it: what was left before its own hold. */
export type KeyBudget = { budgetMicro: number; leftMicro: number };

export type BillingAccount = {
  settings: BillingSettingsRow;
  buckets: BucketTotals;
  held: HeldTotals;
  /** Read by a reservation made with a key that has a budget; null otherwise. */
  keyBudget: KeyBudget | null;
};

function accountQuery(organizationId: string, now: Date): SQL {
  const at = now.toISOString();
  return sql`
    select o.billing_model, o.subscription_status, o.query_limit,
      b.bucket_count, b.granted_micro, b.remaining_micro, r.held_micro, r.held_messages
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
    cross join lateral (
      select coalesce(sum(amount_micro), 0)::text as held_micro,
        (count(*) filter (where agent_message))::int as held_messages
      from credit_reservations
      where credit_reservations.organization_id = o.id
        and credit_reservations.expires_at > ${at}::timestamptz
    ) r
    where o.id = ${organizationId}`;
}

type AccountRow = {
  billing_model: BillingSettingsRow["billingModel"];
  subscription_status: BillingSettingsRow["subscriptionStatus"];
  query_limit: number | null;
  bucket_count: number;
  granted_micro: string;
  remaining_micro: string;
  held_micro: string;
  held_messages: number;
  /** Only in a reservation's row. */
  key_budget?: string | null;
  key_left?: string | null;
};

/** The account from a row with the columns of accountQuery; null when there was none. */
function accountOf(raw: Record<string, unknown> | undefined): BillingAccount | null {
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
    held: { micro: Number(row.held_micro), agentMessages: Number(row.held_messages) },
    keyBudget:
      row.key_budget == null
        ? null
        : { budgetMicro: Number(row.key_budget), leftMicro: Number(row.key_left) },
  };
}

/** An organization's account as a statement part (no CTEs; the columns of accountQuery). */
function accountPart(organizationId: string, now: Date): StatementPart<BillingAccount | null> {
  return { row: accountQuery(organizationId, now), read: accountOf };
}

type ReservationRow = {
  id: string;
  organizationId: string;
  estimateMicro: number;
  agentMessage: boolean;
  at: Date;
  expiresAt: Date;
  apiKeyId: string | null;
};

/**
 * billing_reserve (migrations 0020, 0032) as a statement part (CTE `reservation`, the columns of
 * accountQuery): takes the organization's billing lock, inserts the reservation and reads the
 * account as it was then (`held` counts the organization's other live reservations); null, with
 * nothing written, when the organization does not exist.
 */
function reservePart(reservation: ReservationRow): StatementPart<BillingAccount | null> {
  return {
    ctes: sql`reservation as materialized (
      select model as billing_model, status as subscription_status, monthly_limit as query_limit,
        buckets as bucket_count, granted::text as granted_micro,
        remaining::text as remaining_micro, held::text as held_micro, held_messages,
        key_budget::text, key_left::text
      from billing_reserve(${reservation.id}, ${reservation.organizationId},
        ${reservation.estimateMicro}::bigint, ${reservation.agentMessage},
        ${reservation.at.toISOString()}::timestamptz,
        ${reservation.expiresAt.toISOString()}::timestamptz, ${reservation.apiKeyId}::text))`,
    row: sql`select * from reservation`,
    read: accountOf,
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

    reservePart,

    /**
     * What a key with a monthly budget has left now: the budget less this month's (UTC) spending
     * and its running actions' holds; null for a key without a budget. Read under the
     * organization's billing lock, as the billing functions read it.
     */
    async keyBudget(apiKeyId: string, now: Date, tx: Db = db): Promise<KeyBudget | null> {
      const [row] = rowsOf<{ budget: string | null; left: string | null }>(
        await tx.execute(sql`
          select k.monthly_budget_micro::text as budget,
            (k.monthly_budget_micro
              - coalesce((select s.spent_micro from api_key_spending s where s.api_key_id = k.id
                  and s.month = date_trunc('month', ${now.toISOString()}::timestamptz, 'UTC')), 0)
              - coalesce((select sum(r.budget_micro) from credit_reservations r
                  where r.api_key_id = k.id), 0))::text as left
          from api_keys k where k.id = ${apiKeyId}`),
      );
      if (!row || row.budget === null) return null;
      return { budgetMicro: Number(row.budget), leftMicro: Number(row.left) };
    },

    /** Deletes a reservation that will not be settled (refused, or its action failed). */
    async release(organizationId: string, reservationId: string): Promise<void> {
      await db
        .delete(creditReservations)
        .where(
          and(
            eq(creditReservations.organizationId, organizationId),
            eq(creditReservations.id, reservationId),
          ),
        );
    },

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

    /** The organization's plan (`organizations.plan`), null when it has none or does not exist. */
    async planOf(organizationId: string, tx: Db = db): Promise<string | null> {
      const [row] = await tx
        .select({ plan: organizations.plan })
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      return row?.plan ?? null;
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
