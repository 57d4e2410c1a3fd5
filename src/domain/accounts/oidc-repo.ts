import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { invitations, memberships, oidcLogins, users } from "../../db/schema/index.ts";
import type { UserRow } from "./account-repo.ts";
import type { Role } from "./permissions.ts";

export type OidcLoginRow = typeof oidcLogins.$inferSelect;
export type PendingInvitation = { id: string; organizationId: string; role: Role };

/** Sign-ins under way, OpenID identities, and the invitations an SSO sign-in accepts. */
export function createOidcRepo(db: Db) {
  return {
    async insertLogin(row: typeof oidcLogins.$inferInsert): Promise<void> {
      await db.insert(oidcLogins).values(row);
    },

    /** Takes a live sign-in by its state: it exists no more once this returns it. */
    async takeLogin(state: string, tx: Db = db): Promise<OidcLoginRow | null> {
      const [row] = await tx
        .delete(oidcLogins)
        .where(and(eq(oidcLogins.state, state), gt(oidcLogins.expiresAt, sql`now()`)))
        .returning();
      return row ?? null;
    },

    /** Sign-ins abandoned at the provider. */
    async deleteExpiredLogins(): Promise<void> {
      await db.delete(oidcLogins).where(lt(oidcLogins.expiresAt, sql`now()`));
    },

    async userByIdentity(issuer: string, subject: string, tx: Db = db): Promise<UserRow | null> {
      const [row] = await tx
        .select()
        .from(users)
        .where(and(eq(users.oidcIssuer, issuer), eq(users.oidcSubject, subject)));
      return row ?? null;
    },

    /** Invitations for this e-mail not yet accepted nor expired, locked until the commit. */
    async pendingInvitations(email: string, tx: Db): Promise<PendingInvitation[]> {
      return tx
        .select({
          id: invitations.id,
          organizationId: invitations.organizationId,
          role: invitations.role,
        })
        .from(invitations)
        .where(
          and(
            eq(invitations.email, email),
            isNull(invitations.acceptedAt),
            gt(invitations.expiresAt, sql`now()`),
          ),
        )
        .for("update");
    },

    async markInvitationAccepted(invitationId: string, tx: Db): Promise<void> {
      await tx
        .update(invitations)
        .set({ acceptedAt: sql`now()` })
        .where(eq(invitations.id, invitationId));
    },

    /** Makes the user a member; false when they already were (their role stays). */
    async join(organizationId: string, userId: string, role: Role, tx: Db): Promise<boolean> {
      const inserted = await tx
        .insert(memberships)
        .values({ organizationId, userId, role })
        .onConflictDoNothing()
        .returning({ userId: memberships.userId });
      return inserted.length > 0;
    },
  };
}

export type OidcRepo = ReturnType<typeof createOidcRepo>;
