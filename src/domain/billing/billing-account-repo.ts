import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, organizations } from "../../db/schema/index.ts";

export type BillingSettingsRow = {
  billingModel: "credits" | "legacy";
  subscriptionStatus: "active" | "past_due" | "none";
  queryLimit: number | null;
};

const settingsColumns = {
  billingModel: organizations.billingModel,
  subscriptionStatus: organizations.subscriptionStatus,
  queryLimit: organizations.queryLimit,
};

/** The billing side of an organization: its settings, and the lock every charge takes. */
export function createBillingAccountRepo(db: Db) {
  return {
    async findSettings(organizationId: string, tx: Db = db): Promise<BillingSettingsRow | null> {
      const [row] = await tx
        .select(settingsColumns)
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      return row ?? null;
    },

    /**
     * Reads the settings and locks the organization's row until the transaction ends, so the
     * charges of one organization run one after another (balance read, debit and event write
     * never interleave). NO KEY UPDATE leaves inserts that reference the organization unblocked.
     */
    async lockSettings(organizationId: string, tx: Db): Promise<BillingSettingsRow | null> {
      const [row] = await tx
        .select(settingsColumns)
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .for("no key update");
      return row ?? null;
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
