import type { Db } from "../../db/client.ts";
import { createNotifiedCache } from "../../db/notified-cache.ts";
import { newId } from "../../lib/ids.ts";
import { randomToken, sha256Hex } from "../../lib/secrets.ts";
import type { AccountRepo, MembershipView } from "./account-repo.ts";
import type { Role } from "./permissions.ts";

/** The channel on which changes to sessions, memberships and users are announced (0030). */
export const SESSIONS_CHANGED_CHANNEL = "sessions_changed";

/** What a request signed in with a session knows of its caller. */
export type SessionIdentity = {
  sessionId: string;
  userId: string;
  email: string | null;
  name: string | null;
  instanceAdmin: boolean;
  activeOrganizationId: string | null;
  memberships: MembershipView[];
  expiresAt: number;
};

/**
 * How long a verified session is trusted without reading it again. Logouts, password changes
 * and membership changes reach every process at once by notification; this only bounds a
 * notification lost on a connection that stayed up.
 */
const VERIFIED_SESSION_TTL_MS = 60_000;
const VERIFIED_SESSIONS_MAX = 10_000;
const TOKEN_PREFIX = "ads_";

export function roleIn(identity: SessionIdentity, organizationId: string): Role | null {
  return identity.memberships.find((membership) => membership.id === organizationId)?.role ?? null;
}

export function createSessionService(deps: { accounts: AccountRepo; maxAgeMs: number }) {
  const verified = createNotifiedCache<SessionIdentity>({
    ttlMs: VERIFIED_SESSION_TTL_MS,
    maxEntries: VERIFIED_SESSIONS_MAX,
    idOf: (session) => session.userId,
  });

  return {
    /** To be told of changes made by any process (SESSIONS_CHANGED_CHANNEL). */
    sessionChanges: verified.events,

    /** Starts a session; the token goes in the cookie and only its SHA-256 is stored. */
    async start(
      input: {
        userId: string;
        activeOrganizationId: string | null;
        ip: string | null;
        userAgent: string | null;
      },
      tx?: Db,
    ): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
      const token = `${TOKEN_PREFIX}${randomToken(32)}`;
      const expiresAt = new Date(Date.now() + deps.maxAgeMs);
      const row = await deps.accounts.insertSession(
        {
          id: newId(),
          tokenHash: sha256Hex(token),
          userId: input.userId,
          activeOrganizationId: input.activeOrganizationId,
          ip: input.ip,
          userAgent: input.userAgent?.slice(0, 512) ?? null,
          expiresAt,
        },
        tx,
      );
      return { token, sessionId: row.id, expiresAt };
    },

    async authenticate(token: string): Promise<SessionIdentity | null> {
      if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
      const tokenHash = sha256Hex(token);
      const kept = verified.get(tokenHash);
      if (kept) return kept.expiresAt > Date.now() ? kept : null;
      const ticket = verified.ticket();
      const session = await deps.accounts.liveSessionByHash(tokenHash);
      if (!session) return null;
      const [user, memberships] = await Promise.all([
        deps.accounts.userById(session.userId),
        deps.accounts.membershipsOf(session.userId),
      ]);
      if (!user) return null;
      const identity: SessionIdentity = {
        sessionId: session.id,
        userId: user.id,
        email: user.email,
        name: user.name,
        instanceAdmin: user.instanceAdmin,
        activeOrganizationId: session.activeOrganizationId,
        memberships,
        expiresAt: session.expiresAt.getTime(),
      };
      verified.keep(tokenHash, identity, ticket);
      return identity;
    },

    /** Ends one session; the notification reaches every process, this one at once. */
    async end(identity: Pick<SessionIdentity, "sessionId" | "userId">, tx?: Db): Promise<void> {
      await deps.accounts.deleteSession(identity.sessionId, tx);
      verified.forget(identity.userId);
    },

    /** Forgets what this process kept of a user (its own change, before the notification). */
    forgetUser: (userId: string) => verified.forget(userId),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
