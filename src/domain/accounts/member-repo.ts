import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { invitations, memberships, organizations, users } from "../../db/schema/index.ts";
import type { Role } from "./permissions.ts";

export type InvitationRow = typeof invitations.$inferSelect;

/** A pending invitation: not accepted and not expired. */
const pending = () => and(isNull(invitations.acceptedAt), gt(invitations.expiresAt, sql`now()`));

/** An organization's memberships and invitations. */
export function createMemberRepo(db: Db) {
  return {
    /**
     * Locks the organization's row for the transaction, so that two changes of its owners
     * cannot each see the other owner still there. False when there is no such organization.
     */
    async lockOrganization(organizationId: string, tx: Db): Promise<boolean> {
      const rows = await tx
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .for("update");
      return rows.length > 0;
    },

    /** Serializes the making of an account for this e-mail (two sign-ups, two invitations). */
    async lockEmail(email: string, tx: Db): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`agentdesk.email:${email}`}))`);
    },

    async list(organizationId: string, tx: Db = db) {
      return tx
        .select({
          userId: users.id,
          email: users.email,
          name: users.name,
          role: memberships.role,
          joinedAt: memberships.createdAt,
        })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(memberships.organizationId, organizationId))
        .orderBy(asc(memberships.createdAt), asc(users.id));
    },

    async roleOf(organizationId: string, userId: string, tx: Db = db): Promise<Role | null> {
      const [row] = await tx
        .select({ role: memberships.role })
        .from(memberships)
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
      return row?.role ?? null;
    },

    async ownerCount(organizationId: string, tx: Db): Promise<number> {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(memberships)
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")));
      return row?.n ?? 0;
    },

    async add(organizationId: string, userId: string, role: Role, tx: Db): Promise<boolean> {
      const rows = await tx
        .insert(memberships)
        .values({ organizationId, userId, role })
        .onConflictDoNothing()
        .returning({ userId: memberships.userId });
      return rows.length > 0;
    },

    async setRole(organizationId: string, userId: string, role: Role, tx: Db): Promise<void> {
      await tx
        .update(memberships)
        .set({ role })
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
    },

    async remove(organizationId: string, userId: string, tx: Db): Promise<void> {
      await tx
        .delete(memberships)
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
    },

    async insertInvitation(row: typeof invitations.$inferInsert, tx: Db): Promise<InvitationRow> {
      const [inserted] = await tx.insert(invitations).values(row).returning();
      return inserted!;
    },

    /** Drops the pending invitations of this e-mail to this organization (a new one replaces them). */
    async dropPendingInvitations(organizationId: string, email: string, tx: Db): Promise<void> {
      await tx
        .delete(invitations)
        .where(
          and(
            eq(invitations.organizationId, organizationId),
            eq(invitations.email, email),
            pending(),
          ),
        );
    },

    async pendingInvitations(organizationId: string) {
      return db
        .select({
          id: invitations.id,
          email: invitations.email,
          role: invitations.role,
          invitedById: invitations.invitedById,
          createdAt: invitations.createdAt,
          expiresAt: invitations.expiresAt,
        })
        .from(invitations)
        .where(and(eq(invitations.organizationId, organizationId), pending()))
        .orderBy(desc(invitations.createdAt), desc(invitations.id));
    },

    /** Deletes a pending invitation; null when the organization has no such pending one. */
    async deletePendingInvitation(organizationId: string, invitationId: string, tx: Db) {
      const [row] = await tx
        .delete(invitations)
        .where(
          and(
            eq(invitations.organizationId, organizationId),
            eq(invitations.id, invitationId),
            pending(),
          ),
        )
        .returning();
      return row ?? null;
    },

    async pendingInvitationByHash(tokenHash: string): Promise<InvitationRow | null> {
      const [row] = await db
        .select()
        .from(invitations)
        .where(and(eq(invitations.tokenHash, tokenHash), pending()));
      return row ?? null;
    },

    async insertOrganization(id: string, name: string, tx: Db): Promise<void> {
      await tx.insert(organizations).values({ id, name });
    },

    /** Marks a pending invitation accepted and returns it: one caller wins, once. */
    async takeInvitation(tokenHash: string, tx: Db): Promise<InvitationRow | null> {
      const [row] = await tx
        .update(invitations)
        .set({ acceptedAt: sql`now()` })
        .where(and(eq(invitations.tokenHash, tokenHash), pending()))
        .returning();
      return row ?? null;
    },

    async organizationName(organizationId: string, tx: Db = db): Promise<string | null> {
      const [row] = await tx
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      return row?.name ?? null;
    },
  };
}

export type MemberRepo = ReturnType<typeof createMemberRepo>;
