import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { memberships, organizations } from "../../db/schema/index.ts";
import { AppError, invalid, RateLimitedError, unauthorized } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { randomToken, sha256Hex } from "../../lib/secrets.ts";
import type { AccountRepo, MembershipView, UserRow } from "./account-repo.ts";
import type { AuditLog, AuditOrigin } from "./audit-log.ts";
import type { Mailer } from "./mailer.ts";
import { checkPasswordStrength, hashPassword, verifyPassword } from "./passwords.ts";
import type { SessionIdentity, SessionService } from "./session-service.ts";

/** More failed logins than this per e-mail or per address within the window: 429. */
const LOGIN_FAILURES_ALLOWED = 10;
const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
const RESET_TTL_MS = 60 * 60_000;
const RESETS_LIVE_MAX = 3;
const SETUP_TTL_MS = 7 * 24 * 60 * 60_000;

export type StartedSession = { token: string; expiresAt: Date; view: SessionView };

export type SessionView = {
  user: { id: string; email: string | null; name: string | null };
  organizations: MembershipView[];
};

export type AccountSettings = {
  publicUrl: string;
  /** Whether anyone may make an account and an organization (SIGNUP=open). */
  openSignup: boolean;
};

/** E-mails are compared and stored lower-cased and trimmed. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

function sessionView(
  user: Pick<UserRow, "id" | "email" | "name">,
  memberships: MembershipView[],
): SessionView {
  return { user: { id: user.id, email: user.email, name: user.name }, organizations: memberships };
}

export function createAccountService(deps: {
  db: Db;
  accounts: AccountRepo;
  sessions: SessionService;
  audit: AuditLog;
  mailer: Mailer;
  logger: Logger;
  settings: AccountSettings;
}) {
  const { accounts, audit } = deps;

  async function startSession(
    user: UserRow,
    origin: AuditOrigin,
    tx: Db,
    preferred?: string,
  ): Promise<StartedSession> {
    const memberships = await accounts.membershipsOf(user.id, tx);
    const active = memberships.find((m) => m.id === preferred) ?? memberships[0] ?? null;
    const session = await deps.sessions.start(
      { userId: user.id, activeOrganizationId: active?.id ?? null, ...origin },
      tx,
    );
    return {
      token: session.token,
      expiresAt: session.expiresAt,
      view: sessionView(user, memberships),
    };
  }

  /** The organization every instance has: the oldest one named Default, made when missing. */
  async function defaultOrganizationId(tx: Db): Promise<string> {
    const [existing] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.name, "Default"))
      .orderBy(asc(organizations.createdAt), asc(organizations.id))
      .limit(1);
    if (existing) return existing.id;
    const id = newId();
    await tx.insert(organizations).values({ id, name: "Default" });
    return id;
  }

  /**
   * A password checked as a login checks it: refused past the guessing limit (per e-mail and
   * per address), and a wrong one recorded as a failed login, which that limit counts.
   */
  async function checkPassword(
    email: string,
    password: string,
    origin: AuditOrigin,
    wrong: string,
    details?: Record<string, unknown>,
  ): Promise<UserRow> {
    const since = new Date(Date.now() - LOGIN_FAILURE_WINDOW_MS);
    const failures = await audit.failedLogins(email, origin.ip, since);
    if (failures.byEmail >= LOGIN_FAILURES_ALLOWED || failures.byIp >= LOGIN_FAILURES_ALLOWED) {
      throw new RateLimitedError(
        "Too many failed logins; try again in 15 minutes",
        LOGIN_FAILURE_WINDOW_MS / 1000,
      );
    }
    const user = await accounts.userByEmail(email);
    const matches = await verifyPassword(password, user?.passwordHash ?? null);
    if (user && matches) return user;
    const organizationId = user ? ((await accounts.membershipsOf(user.id))[0]?.id ?? null) : null;
    await audit.record({
      organizationId,
      action: "login.failed",
      actor: { type: "user", id: user?.id ?? null, email },
      origin,
      ...(details ? { details } : {}),
    });
    throw unauthorized(wrong);
  }

  return {
    startSession: (user: UserRow, origin: AuditOrigin, tx: Db = deps.db, preferred?: string) =>
      startSession(user, origin, tx, preferred),
    defaultOrganizationId,
    checkPassword,

    async login(
      input: { email: string; password: string },
      origin: AuditOrigin,
    ): Promise<StartedSession> {
      const user = await checkPassword(
        normalizeEmail(input.email),
        input.password,
        origin,
        "The e-mail or the password is wrong",
      );
      return deps.db.transaction(async (tx) => {
        const started = await startSession(user, origin, tx);
        await audit.record(
          {
            organizationId: started.view.organizations[0]?.id ?? null,
            action: "login.succeeded",
            actor: { type: "user", id: user.id, email: user.email },
            origin,
            details: { method: "password" },
          },
          tx,
        );
        return started;
      });
    },

    async logout(identity: SessionIdentity, origin: AuditOrigin): Promise<void> {
      await deps.db.transaction(async (tx) => {
        await deps.sessions.end(identity, tx);
        await audit.record(
          {
            organizationId: identity.activeOrganizationId,
            action: "logout",
            actor: { type: "user", id: identity.userId, email: identity.email },
            origin,
          },
          tx,
        );
      });
      deps.sessions.forgetUser(identity.userId);
    },

    view(identity: SessionIdentity) {
      return {
        ...sessionView(
          { id: identity.userId, email: identity.email, name: identity.name },
          identity.memberships,
        ),
        activeOrganizationId: identity.activeOrganizationId,
      };
    },

    async switchOrganization(identity: SessionIdentity, organizationId: string) {
      if (!identity.memberships.some((m) => m.id === organizationId)) {
        throw new AppError("FORBIDDEN", `You are not a member of organization ${organizationId}`);
      }
      await accounts.setActiveOrganization(identity.sessionId, organizationId);
      deps.sessions.forgetUser(identity.userId);
    },

    /**
     * A one-time link that lets the first person make the owner account; null once somebody
     * can sign in. Every link made stays valid for 7 days and all die when one is used.
     */
    async setupLink(): Promise<string | null> {
      if (await accounts.anyoneCanSignIn()) return null;
      const token = randomToken(32);
      await accounts.insertToken({
        tokenHash: sha256Hex(token),
        purpose: "setup",
        expiresAt: new Date(Date.now() + SETUP_TTL_MS),
      });
      return `${deps.settings.publicUrl}/console/setup?token=${token}`;
    },

    /** Makes the first owner, who is also the instance administrator, and signs them in. */
    async setup(
      input: { token: string; email: string; name: string; password: string },
      origin: AuditOrigin,
    ): Promise<StartedSession> {
      checkPasswordStrength(input.password);
      const passwordHash = await hashPassword(input.password);
      const email = normalizeEmail(input.email);
      return deps.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('agentdesk.setup'))`);
        const taken = await accounts.takeToken(sha256Hex(input.token), "setup", tx);
        if (!taken || (await accounts.anyoneCanSignIn(tx))) {
          throw invalid(
            "This setup link is invalid, used or expired (agentdesk setup-link makes a new one)",
          );
        }
        await accounts.deleteTokens("setup", null, tx);
        const existing = await accounts.userByEmail(email, tx);
        const values = { name: input.name, passwordHash, instanceAdmin: true };
        const user = existing
          ? (await accounts.updateUser(existing.id, values, tx))!
          : await accounts.insertUser({ id: newId(), email, ...values }, tx);
        const organizationId = await defaultOrganizationId(tx);
        await tx
          .insert(memberships)
          .values({ organizationId, userId: user.id, role: "owner" })
          .onConflictDoUpdate({
            target: [memberships.organizationId, memberships.userId],
            set: { role: "owner" },
          });
        await audit.record(
          {
            organizationId,
            action: "member.joined",
            actor: { type: "user", id: user.id, email },
            target: { type: "user", id: user.id },
            origin,
            details: { role: "owner", via: "setup" },
          },
          tx,
        );
        return startSession(user, origin, tx, organizationId);
      });
    },

    /**
     * Mails a reset link when the e-mail belongs to a user with a password. Answers the same
     * whether it does or not: the mail goes out after the answer.
     */
    async requestPasswordReset(emailInput: string, origin: AuditOrigin): Promise<void> {
      if (!deps.mailer.enabled) {
        throw new AppError(
          "SERVICE_UNAVAILABLE",
          "Password reset by e-mail is not available: this server has no SMTP_URL. Ask an administrator to invite you again.",
        );
      }
      const email = normalizeEmail(emailInput);
      const user = await accounts.userByEmail(email);
      if (!user || (!user.passwordHash && !user.oidcSubject)) return;
      // A mailbox is not flooded: past a few live links, asking again sends nothing.
      if ((await accounts.liveTokenCount("password_reset", user.id)) >= RESETS_LIVE_MAX) return;
      const token = randomToken(32);
      await deps.db.transaction(async (tx) => {
        await accounts.insertToken(
          {
            tokenHash: sha256Hex(token),
            purpose: "password_reset",
            userId: user.id,
            expiresAt: new Date(Date.now() + RESET_TTL_MS),
          },
          tx,
        );
        await audit.record(
          {
            organizationId: (await accounts.membershipsOf(user.id, tx))[0]?.id ?? null,
            action: "password.reset_requested",
            actor: { type: "user", id: user.id, email },
            origin,
          },
          tx,
        );
      });
      const link = `${deps.settings.publicUrl}/console/reset-password?token=${token}`;
      deps.mailer
        .send({
          to: email,
          subject: "Reset your agentdesk password",
          text: `Someone asked to reset the password of ${email} on agentdesk.\n\nTo choose a new password, open this link within the hour:\n${link}\n\nIf it was not you, ignore this message; your password stays as it is.\n`,
        })
        .catch(() => deps.logger.warn("the password reset e-mail was not sent"));
    },

    /** Sets a new password from a reset link (once, within the hour) and ends every session. */
    async resetPassword(token: string, password: string, origin: AuditOrigin): Promise<void> {
      checkPasswordStrength(password);
      const passwordHash = await hashPassword(password);
      const userId = await deps.db.transaction(async (tx) => {
        const taken = await accounts.takeToken(sha256Hex(token), "password_reset", tx);
        if (!taken?.userId) throw invalid("This reset link is invalid, used or expired");
        const user = await accounts.updateUser(taken.userId, { passwordHash }, tx);
        if (!user) throw invalid("This reset link is invalid, used or expired");
        await accounts.deleteTokens("password_reset", user.id, tx);
        await accounts.deleteSessionsOf(user.id, null, tx);
        await audit.record(
          {
            organizationId: (await accounts.membershipsOf(user.id, tx))[0]?.id ?? null,
            action: "password.reset",
            actor: { type: "user", id: user.id, email: user.email },
            origin,
          },
          tx,
        );
        return user.id;
      });
      deps.sessions.forgetUser(userId);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
