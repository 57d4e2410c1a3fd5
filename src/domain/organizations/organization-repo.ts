import { count, eq, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client.ts";
import { memberships, organizations, users } from "../../db/schema/index.ts";
import type { Role } from "../accounts/permissions.ts";
import { SESSIONS_CHANGED_CHANNEL } from "../accounts/session-service.ts";

export type OrganizationRow = typeof organizations.$inferSelect;
export type BillingSettings = Partial<
  Pick<OrganizationRow, "billingModel" | "plan" | "subscriptionStatus" | "queryLimit">
>;
/** What owners and admins change themselves (PATCH /api/organizations/{id}). */
export type OrganizationSettings = Partial<
  Pick<OrganizationRow, "name" | "conversationRetentionDays">
>;

export function createOrganizationRepo(db: Db) {
  return {
    async insert(row: typeof organizations.$inferInsert, tx: Db = db): Promise<OrganizationRow> {
      const [inserted] = await tx.insert(organizations).values(row).returning();
      return inserted!;
    },

    /** The organization; with `lock`, locked against other changes until the transaction ends. */
    async findById(
      organizationId: string,
      tx: Db = db,
      { lock = false } = {},
    ): Promise<OrganizationRow | null> {
      const query = tx.select().from(organizations).where(eq(organizations.id, organizationId));
      const [row] = lock ? await query.for("update") : await query;
      return row ?? null;
    },

    async count(tx: Db = db): Promise<number> {
      const [row] = await tx.select({ total: count() }).from(organizations);
      return row?.total ?? 0;
    },

    async update(
      organizationId: string,
      settings: BillingSettings | OrganizationSettings,
      tx: Db = db,
    ): Promise<OrganizationRow | null> {
      const [row] = await tx
        .update(organizations)
        .set({ ...settings, updatedAt: new Date() })
        .where(eq(organizations.id, organizationId))
        .returning();
      return row ?? null;
    },

    async addMember(organizationId: string, userId: string, role: Role, tx: Db = db) {
      await tx.insert(memberships).values({ organizationId, userId, role }).onConflictDoNothing();
    },

    /**
     * Tells every process (on commit, SESSIONS_CHANGED_CHANNEL as migration 0030's triggers do)
     * that the sessions of the organization's members changed: they carry its name. Returns the
     * members' ids.
     */
    async announceToMembers(organizationId: string, tx: Db = db): Promise<string[]> {
      const rows = rowsOf<{ userId: string }>(
        await tx.execute(sql`
          select user_id as "userId", pg_notify(${SESSIONS_CHANGED_CHANNEL}, user_id)
          from memberships where organization_id = ${organizationId}`),
      );
      return rows.map((row) => row.userId);
    },

    /** The user who owns the organization (its first owner membership). */
    async findOwnerId(organizationId: string, tx: Db = db): Promise<string | null> {
      const [row] = await tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(eq(memberships.organizationId, organizationId))
        .orderBy(memberships.createdAt)
        .limit(1);
      return row?.userId ?? null;
    },
  };
}

export function createUserRepo(db: Db) {
  return {
    async findOrCreateByEmail(email: string | null, newId: string, tx: Db = db) {
      if (email !== null) {
        const [existing] = await tx.select().from(users).where(eq(users.email, email));
        if (existing) return existing;
      }
      const [created] = await tx
        .insert(users)
        .values({ id: newId, email })
        .onConflictDoNothing()
        .returning();
      if (created) return created;
      // A concurrent request created the same email between our read and write.
      const [raced] = await tx.select().from(users).where(eq(users.email, email!));
      return raced!;
    },
  };
}

export type OrganizationRepo = ReturnType<typeof createOrganizationRepo>;
export type UserRepo = ReturnType<typeof createUserRepo>;
