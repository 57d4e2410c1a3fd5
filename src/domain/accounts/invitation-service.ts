import type { Db } from "../../db/client.ts";
import { AppError, invalid, notFound, unauthorized } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { randomToken, sha256Hex } from "../../lib/secrets.ts";
import type { AccountRepo, UserRow } from "./account-repo.ts";
import {
  type AccountService,
  normalizeEmail,
  type SessionView,
  type StartedSession,
} from "./account-service.ts";
import type { AuditActor, AuditLog, AuditOrigin } from "./audit-log.ts";
import type { Mailer } from "./mailer.ts";
import type { MemberRepo } from "./member-repo.ts";
import { actingRole, type PeopleContext, refuseOwnerChange } from "./member-service.ts";
import { checkPasswordStrength, hashPassword } from "./passwords.ts";
import type { Role } from "./permissions.ts";
import type { SessionIdentity, SessionService } from "./session-service.ts";

const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;
/** The same answer for a token never issued, used, expired or revoked. */
const INVALID_LINK = "This invitation link is invalid, used, expired or revoked";

/** Whether the invitation e-mail went out: sent, failed (the link still works), or no SMTP_URL. */
type InvitationMail = "sent" | "failed" | "disabled";

export type IssuedInvitation = {
  id: string;
  email: string;
  role: Role;
  expiresAt: string;
  acceptUrl: string;
  mail: InvitationMail;
};

export type AcceptInput = { password?: string | undefined; name?: string | undefined };

/** A joined organization: a new session when none was signed in, and the account's view. */
export type AcceptedInvitation = { started: StartedSession | null; view: SessionView };

type Issuer = {
  actor: AuditActor;
  origin: AuditOrigin | undefined;
  invitedById: string | null;
  /** The role the issuer acts with, read in the transaction (null: the operator, unbounded). */
  acting: ((tx: Db) => Promise<Role>) | null;
};

export function createInvitationService(deps: {
  db: Db;
  members: MemberRepo;
  users: AccountRepo;
  accounts: Pick<AccountService, "startSession" | "checkPassword">;
  sessions: Pick<SessionService, "forgetUser">;
  audit: AuditLog;
  mailer: Mailer;
  publicUrl: string;
}) {
  const { members, users, audit } = deps;

  async function issue(
    organizationId: string,
    input: { email: string; role: Role },
    issuer: Issuer,
  ): Promise<IssuedInvitation> {
    const email = normalizeEmail(input.email);
    const token = randomToken(32);
    const { invitation, organizationName } = await deps.db.transaction(async (tx) => {
      if (!(await members.lockOrganization(organizationId, tx))) {
        throw notFound(`Organization ${organizationId} not found`);
      }
      if (issuer.acting) refuseOwnerChange(await issuer.acting(tx), input.role);
      const existing = await users.userByEmail(email, tx);
      if (existing && (await members.roleOf(organizationId, existing.id, tx))) {
        throw new AppError("CONFLICT", `${email} is already a member of this organization`);
      }
      await members.dropPendingInvitations(organizationId, email, tx);
      const invitation = await members.insertInvitation(
        {
          id: newId(),
          organizationId,
          email,
          role: input.role,
          tokenHash: sha256Hex(token),
          invitedById: issuer.invitedById,
          expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
        },
        tx,
      );
      await audit.record(
        {
          organizationId,
          action: "member.invited",
          actor: issuer.actor,
          target: { type: "invitation", id: invitation.id },
          origin: issuer.origin,
          details: { email, role: input.role },
        },
        tx,
      );
      return { invitation, organizationName: await members.organizationName(organizationId, tx) };
    });
    const acceptUrl = `${deps.publicUrl}/console/accept-invitation?token=${token}`;
    const mail: InvitationMail = deps.mailer.enabled
      ? await deps.mailer
          .send({
            to: email,
            subject: `You are invited to ${organizationName} on agentdesk`,
            text: `You are invited to join ${organizationName} on agentdesk as ${input.role}.\n\nTo accept, open this link within 7 days:\n${acceptUrl}\n\nIf you did not expect this invitation, ignore this message.\n`,
          })
          .then(
            () => "sent" as const,
            () => "failed" as const,
          )
      : "disabled";
    return {
      id: invitation.id,
      email,
      role: invitation.role,
      expiresAt: invitation.expiresAt.toISOString(),
      acceptUrl,
      mail,
    };
  }

  /**
   * Who accepts: the signed-in user when there is one (who must be the invited e-mail), else
   * the invited e-mail's account (its password checked), else a new account.
   */
  async function accountFor(
    email: string,
    input: AcceptInput,
    session: SessionIdentity | null,
    origin: AuditOrigin,
  ): Promise<{ user: UserRow | null; passwordHash: string | null }> {
    if (session) {
      if (session.email !== email) {
        throw new AppError(
          "FORBIDDEN",
          `This invitation is for ${email}, and you are signed in as ${session.email}: sign out, then open the link again`,
        );
      }
      const user = await users.userById(session.userId);
      if (!user) throw unauthorized("Sign in first (POST /api/auth/login)");
      return { user, passwordHash: null };
    }
    const user = await users.userByEmail(email);
    if (user?.passwordHash) {
      if (!input.password) {
        throw invalid(
          `An account with ${email} exists: give its password, or sign in first and open the link again`,
        );
      }
      await deps.accounts.checkPassword(email, input.password, origin, "The password is wrong", {
        via: "invitation",
      });
      return { user, passwordHash: null };
    }
    if (user?.oidcSubject) {
      throw invalid("This account signs in with single sign-on: sign in, then open the link again");
    }
    // An account nobody can sign in to yet (an owner named before accounts existed) is claimed
    // by the link only if it belongs to no organization: the link is shown to the inviter too.
    if (user && (await users.membershipsOf(user.id)).length > 0) {
      throw invalid(
        `The account of ${email} cannot sign in yet: ask the operator for a password reset or a setup link`,
      );
    }
    if (!input.password) {
      throw invalid("Choose a password (at least 10 characters) to create your account");
    }
    checkPasswordStrength(input.password);
    return { user, passwordHash: await hashPassword(input.password) };
  }

  /** The accepting account: the one found, given the new password, or made now. */
  async function claim(
    email: string,
    account: { user: UserRow | null; passwordHash: string | null },
    name: string | undefined,
    tx: Db,
  ): Promise<UserRow> {
    const { user, passwordHash } = account;
    if (user && !passwordHash) return user;
    if (user) {
      const values = { passwordHash, ...(name ? { name } : {}) };
      return (await users.updateUser(user.id, values, tx))!;
    }
    await members.lockEmail(email, tx);
    if (await users.userByEmail(email, tx)) {
      throw new AppError(
        "CONFLICT",
        `An account with ${email} was made meanwhile: sign in, then open the link again`,
      );
    }
    return users.insertUser({ id: newId(), email, name: name ?? null, passwordHash }, tx);
  }

  return {
    /** Invites an e-mail; only an owner may invite an owner. Mailed when SMTP_URL is set. */
    invite(context: PeopleContext, input: { email: string; role: Role }) {
      return issue(context.organizationId, input, {
        actor: context.actor,
        origin: context.origin,
        invitedById: context.userId,
        acting: (tx) => actingRole(members, context, tx),
      });
    },

    /** The operator's invitation (agentdesk user create): any role, no inviting user. */
    inviteByOperator(organizationId: string, input: { email: string; role: Role }) {
      return issue(organizationId, input, {
        actor: { type: "admin", id: null },
        origin: undefined,
        invitedById: null,
        acting: null,
      });
    },

    async listPending(organizationId: string) {
      const rows = await members.pendingInvitations(organizationId);
      return rows.map((row) => ({
        ...row,
        createdAt: row.createdAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
      }));
    },

    async revoke(context: PeopleContext, invitationId: string): Promise<void> {
      await deps.db.transaction(async (tx) => {
        const revoked = await members.deletePendingInvitation(
          context.organizationId,
          invitationId,
          tx,
        );
        if (!revoked) throw notFound(`No pending invitation ${invitationId} in this organization`);
        await audit.record(
          {
            organizationId: context.organizationId,
            action: "invitation.revoked",
            actor: context.actor,
            target: { type: "invitation", id: invitationId },
            origin: context.origin,
            details: { email: revoked.email, role: revoked.role },
          },
          tx,
        );
      });
    },

    /** Joins the invitation's organization (once), which becomes the session's active one. */
    async accept(
      token: string,
      input: AcceptInput,
      session: SessionIdentity | null,
      origin: AuditOrigin,
    ): Promise<AcceptedInvitation> {
      const tokenHash = sha256Hex(token);
      const offered = await members.pendingInvitationByHash(tokenHash);
      if (!offered) throw invalid(INVALID_LINK);
      const account = await accountFor(offered.email, input, session, origin);
      const accepted = await deps.db.transaction(async (tx) => {
        const invitation = await members.takeInvitation(tokenHash, tx);
        if (!invitation) throw invalid(INVALID_LINK);
        const user = await claim(invitation.email, account, input.name, tx);
        const joined = await members.add(invitation.organizationId, user.id, invitation.role, tx);
        await audit.record(
          {
            organizationId: invitation.organizationId,
            action: "member.joined",
            actor: { type: "user", id: user.id, email: user.email },
            target: { type: "user", id: user.id },
            origin,
            details: {
              role: joined
                ? invitation.role
                : await members.roleOf(invitation.organizationId, user.id, tx),
              via: "invitation",
              invitationId: invitation.id,
              ...(joined ? {} : { alreadyMember: true }),
            },
          },
          tx,
        );
        const started = session
          ? null
          : await deps.accounts.startSession(user, origin, tx, invitation.organizationId);
        return { user, started, organizationId: invitation.organizationId };
      });
      if (session) await users.setActiveOrganization(session.sessionId, accepted.organizationId);
      deps.sessions.forgetUser(accepted.user.id);
      const view = accepted.started?.view ?? {
        user: { id: accepted.user.id, email: accepted.user.email, name: accepted.user.name },
        organizations: await users.membershipsOf(accepted.user.id),
      };
      return { started: accepted.started, view };
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
