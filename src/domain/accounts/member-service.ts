import type { Db } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import type { AuditActor, AuditLog, AuditOrigin } from "./audit-log.ts";
import type { MemberRepo } from "./member-repo.ts";
import type { Role } from "./permissions.ts";
import type { SessionService } from "./session-service.ts";

/** Who changes an organization's people, and from where (for the rules and the audit log). */
export type PeopleContext = {
  organizationId: string;
  userId: string;
  /** The session user's role in the organization; null for a key (its maker's role counts). */
  role: Role | null;
  actor: AuditActor;
  origin: AuditOrigin;
};

export type MemberView = {
  userId: string;
  email: string | null;
  name: string | null;
  role: Role;
  joinedAt: string;
};

const ONLY_OWNERS = "Only an owner may make someone owner or change or remove an owner";

/**
 * The role the caller acts with: a session's, or for a key the role of the user who holds it
 * (a key never does more than its maker); a key whose maker left counts as an admin.
 */
export async function actingRole(members: MemberRepo, context: PeopleContext, tx: Db) {
  return (
    context.role ?? (await members.roleOf(context.organizationId, context.userId, tx)) ?? "admin"
  );
}

/** Refuses a change that gives or takes the owner role when the caller is not an owner. */
export function refuseOwnerChange(acting: Role, ...roles: (Role | null)[]): void {
  if (acting !== "owner" && roles.includes("owner")) throw new AppError("FORBIDDEN", ONLY_OWNERS);
}

export function createMemberService(deps: {
  db: Db;
  members: MemberRepo;
  audit: AuditLog;
  sessions: Pick<SessionService, "forgetUser">;
}) {
  const { members, audit } = deps;

  /** Runs a change of one member, the organization locked, and returns the member's old role. */
  async function changeMember<T>(
    context: PeopleContext,
    userId: string,
    change: (current: Role, acting: Role, tx: Db) => Promise<T>,
  ): Promise<T> {
    const result = await deps.db.transaction(async (tx) => {
      await members.lockOrganization(context.organizationId, tx);
      const current = await members.roleOf(context.organizationId, userId, tx);
      if (!current) {
        throw notFound(`User ${userId} is not a member of organization ${context.organizationId}`);
      }
      return change(current, await actingRole(members, context, tx), tx);
    });
    // This process at once; the others by the memberships trigger's notification.
    deps.sessions.forgetUser(userId);
    return result;
  }

  async function refuseLastOwner(context: PeopleContext, current: Role, what: string, tx: Db) {
    if (current === "owner" && (await members.ownerCount(context.organizationId, tx)) <= 1) {
      throw new AppError(
        "CONFLICT",
        `The organization's last owner cannot be ${what}: make another member owner first`,
      );
    }
  }

  async function view(organizationId: string, userId: string): Promise<MemberView> {
    const member = (await members.list(organizationId)).find((row) => row.userId === userId);
    if (!member) throw notFound(`User ${userId} is not a member of organization ${organizationId}`);
    return { ...member, joinedAt: member.joinedAt.toISOString() };
  }

  return {
    /** The organization's members, oldest first. */
    async list(organizationId: string): Promise<MemberView[]> {
      const rows = await members.list(organizationId);
      return rows.map((row) => ({ ...row, joinedAt: row.joinedAt.toISOString() }));
    },

    async changeRole(context: PeopleContext, userId: string, role: Role): Promise<MemberView> {
      await changeMember(context, userId, async (current, acting, tx) => {
        refuseOwnerChange(acting, current, role);
        if (current === role) return;
        await refuseLastOwner(context, current, "demoted", tx);
        await members.setRole(context.organizationId, userId, role, tx);
        await audit.record(
          {
            organizationId: context.organizationId,
            action: "member.role_changed",
            actor: context.actor,
            target: { type: "user", id: userId },
            origin: context.origin,
            details: { from: current, to: role },
          },
          tx,
        );
      });
      return view(context.organizationId, userId);
    },

    /** Removes a member; an owner or admin may so remove themselves (leave). */
    async remove(context: PeopleContext, userId: string): Promise<void> {
      await changeMember(context, userId, async (current, acting, tx) => {
        refuseOwnerChange(acting, current);
        await refuseLastOwner(context, current, "removed", tx);
        await members.remove(context.organizationId, userId, tx);
        await audit.record(
          {
            organizationId: context.organizationId,
            action: "member.removed",
            actor: context.actor,
            target: { type: "user", id: userId },
            origin: context.origin,
            details: { role: current, left: userId === context.userId },
          },
          tx,
        );
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
