import type { Db } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AccountRepo, UserRow } from "./account-repo.ts";
import { type AccountService, normalizeEmail, type StartedSession } from "./account-service.ts";
import type { AuditActor, AuditLog, AuditOrigin } from "./audit-log.ts";
import type { MemberRepo } from "./member-repo.ts";
import { checkPasswordStrength, hashPassword } from "./passwords.ts";
import type { SessionIdentity, SessionService } from "./session-service.ts";

export type SignupInput = {
  email: string;
  name: string;
  password: string;
  organizationName?: string | undefined;
};

/** New organizations made by people: a signed-in user's, or a newcomer's with SIGNUP=open. */
export function createSignupService(deps: {
  db: Db;
  members: MemberRepo;
  users: AccountRepo;
  accounts: Pick<AccountService, "startSession">;
  sessions: Pick<SessionService, "forgetUser">;
  audit: AuditLog;
  openSignup: boolean;
}) {
  const { members, audit } = deps;

  /** Makes the organization with its creator as owner, and records both in the audit log. */
  async function found(
    name: string,
    owner: Pick<UserRow, "id" | "email">,
    origin: AuditOrigin,
    via: "session" | "signup",
    tx: Db,
  ): Promise<string> {
    const organizationId = newId();
    await members.insertOrganization(organizationId, name, tx);
    await members.add(organizationId, owner.id, "owner", tx);
    const actor: AuditActor = { type: "user", id: owner.id, email: owner.email };
    const target = { type: "organization", id: organizationId };
    await audit.record(
      {
        organizationId,
        action: "organization.created",
        actor,
        target,
        origin,
        details: { name, via },
      },
      tx,
    );
    await audit.record(
      {
        organizationId,
        action: "member.joined",
        actor,
        target: { type: "user", id: owner.id },
        origin,
        details: { role: "owner", via: "organization.created" },
      },
      tx,
    );
    return organizationId;
  }

  return {
    /** A signed-in user's new organization; it becomes the session's active one if it had none. */
    async createOrganization(session: SessionIdentity, name: string, origin: AuditOrigin) {
      const organizationId = await deps.db.transaction((tx) =>
        found(name, { id: session.userId, email: session.email }, origin, "session", tx),
      );
      if (!session.activeOrganizationId) {
        await deps.users.setActiveOrganization(session.sessionId, organizationId);
      }
      deps.sessions.forgetUser(session.userId);
      return { id: organizationId, name, role: "owner" as const };
    },

    /** SIGNUP=open: an account, its own organization, and a session. */
    async signup(input: SignupInput, origin: AuditOrigin): Promise<StartedSession> {
      if (!deps.openSignup) {
        throw new AppError(
          "FORBIDDEN",
          "Sign-up is closed on this server (SIGNUP=invite): ask an administrator to invite you",
        );
      }
      checkPasswordStrength(input.password);
      const passwordHash = await hashPassword(input.password);
      const email = normalizeEmail(input.email);
      return deps.db.transaction(async (tx) => {
        await members.lockEmail(email, tx);
        if (await deps.users.userByEmail(email, tx)) {
          throw new AppError(
            "CONFLICT",
            "An account with this e-mail exists: sign in, or reset its password",
          );
        }
        const user = await deps.users.insertUser(
          { id: newId(), email, name: input.name, passwordHash },
          tx,
        );
        const organizationName = input.organizationName ?? `${input.name}'s organization`;
        const organizationId = await found(organizationName, user, origin, "signup", tx);
        return deps.accounts.startSession(user, origin, tx, organizationId);
      });
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
