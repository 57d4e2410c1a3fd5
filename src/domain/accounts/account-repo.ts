import { and, asc, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  accountTokens,
  memberships,
  organizations,
  sessions,
  users,
} from "../../db/schema/index.ts";
import type { Role } from "./permissions.ts";

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type MembershipView = { id: string; name: string; role: Role };

/** Users, their memberships, their sessions and their one-time tokens. */
export function createAccountRepo(db: Db) {
  return {
    async userByEmail(email: string, tx: Db = db): Promise<UserRow | null> {
      const [row] = await tx.select().from(users).where(eq(users.email, email));
      return row ?? null;
    },

    async userById(userId: string, tx: Db = db): Promise<UserRow | null> {
      const [row] = await tx.select().from(users).where(eq(users.id, userId));
      return row ?? null;
    },

    async insertUser(row: typeof users.$inferInsert, tx: Db = db): Promise<UserRow> {
      const [inserted] = await tx.insert(users).values(row).returning();
      return inserted!;
    },

    async updateUser(
      userId: string,
      values: Partial<
        Pick<
          UserRow,
          "name" | "passwordHash" | "instanceAdmin" | "oidcIssuer" | "oidcSubject" | "email"
        >
      >,
      tx: Db = db,
    ): Promise<UserRow | null> {
      const [row] = await tx.update(users).set(values).where(eq(users.id, userId)).returning();
      return row ?? null;
    },

    /** Whether anybody can sign in yet (a password or an OpenID identity). */
    async anyoneCanSignIn(tx: Db = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: users.id })
        .from(users)
        .where(or(isNotNull(users.passwordHash), isNotNull(users.oidcSubject)))
        .limit(1);
      return row !== undefined;
    },

    /** The organizations of a user with the user's role in each, oldest membership first. */
    async membershipsOf(userId: string, tx: Db = db): Promise<MembershipView[]> {
      return tx
        .select({ id: organizations.id, name: organizations.name, role: memberships.role })
        .from(memberships)
        .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
        .where(eq(memberships.userId, userId))
        .orderBy(asc(memberships.createdAt), asc(organizations.id));
    },

    async insertSession(row: typeof sessions.$inferInsert, tx: Db = db): Promise<SessionRow> {
      const [inserted] = await tx.insert(sessions).values(row).returning();
      return inserted!;
    },

    async liveSessionByHash(tokenHash: string): Promise<SessionRow | null> {
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, sql`now()`)));
      return row ?? null;
    },

    async deleteSession(sessionId: string, tx: Db = db): Promise<SessionRow | null> {
      const [row] = await tx.delete(sessions).where(eq(sessions.id, sessionId)).returning();
      return row ?? null;
    },

    /** Ends every session of a user (a new password), or every other one (`except`). */
    async deleteSessionsOf(userId: string, except: string | null, tx: Db = db): Promise<void> {
      await tx
        .delete(sessions)
        .where(
          and(eq(sessions.userId, userId), except ? sql`${sessions.id} <> ${except}` : undefined),
        );
    },

    async deleteExpiredSessions(): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
    },

    async setActiveOrganization(sessionId: string, organizationId: string): Promise<void> {
      await db
        .update(sessions)
        .set({ activeOrganizationId: organizationId })
        .where(eq(sessions.id, sessionId));
    },

    async insertToken(row: typeof accountTokens.$inferInsert, tx: Db = db): Promise<void> {
      await tx.insert(accountTokens).values(row);
    },

    /** Takes a live token of this purpose: it exists no more once this returns it. */
    async takeToken(tokenHash: string, purpose: "password_reset" | "setup", tx: Db = db) {
      const [row] = await tx
        .delete(accountTokens)
        .where(
          and(
            eq(accountTokens.tokenHash, tokenHash),
            eq(accountTokens.purpose, purpose),
            gt(accountTokens.expiresAt, sql`now()`),
          ),
        )
        .returning();
      return row ?? null;
    },

    async liveTokenCount(purpose: "password_reset" | "setup", userId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(accountTokens)
        .where(
          and(
            eq(accountTokens.purpose, purpose),
            eq(accountTokens.userId, userId),
            gt(accountTokens.expiresAt, sql`now()`),
          ),
        );
      return row?.n ?? 0;
    },

    async deleteTokens(purpose: "password_reset" | "setup", userId: string | null, tx: Db = db) {
      await tx
        .delete(accountTokens)
        .where(
          and(
            eq(accountTokens.purpose, purpose),
            userId === null ? isNull(accountTokens.userId) : eq(accountTokens.userId, userId),
          ),
        );
    },
  };
}

export type AccountRepo = ReturnType<typeof createAccountRepo>;
