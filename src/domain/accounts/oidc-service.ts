import { sql } from "drizzle-orm";
import * as client from "openid-client";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AccountRepo, UserRow } from "./account-repo.ts";
import { type AccountService, normalizeEmail, type StartedSession } from "./account-service.ts";
import type { AuditLog, AuditOrigin } from "./audit-log.ts";
import { type OidcClaims, type OidcClient, OidcProviderRefusal } from "./oidc-client.ts";
import type { OidcRepo } from "./oidc-repo.ts";

/** How long the provider may take between the redirect and the callback. */
const LOGIN_TTL_MS = 10 * 60_000;

/** Why a sign-in through the provider was refused (the audit's `reason`). */
export type OidcRefusalReason =
  | "state_invalid"
  | "provider_refused"
  | "email_missing"
  | "email_unverified"
  | "identity_conflict"
  | "not_invited"
  | "domain_not_allowed";

export type OidcOutcome =
  | { signedIn: true; session: StartedSession }
  | { signedIn: false; reason: OidcRefusalReason; message: string };

/** A refusal, with whom it concerns for the audit log. */
type Refusal = Extract<OidcOutcome, { signedIn: false }> & {
  user: UserRow | null;
  email: string | null;
};

export type OidcSsoSettings = {
  issuer: string;
  /** E-mail domains whose new users join the Default organization as member. */
  allowedDomains: string[];
  /** Where the provider sends the browser back: PUBLIC_URL/api/auth/oidc/callback. */
  redirectUri: string;
};

const NOT_CONFIGURED = "Single sign-on is not configured on this server (OIDC_ISSUER is not set)";

/**
 * Single sign-on with the operator's OpenID provider (DESIGN.md §10): who may come in, and as
 * whom. A verified e-mail finds its user or its invitations; new users of the allowed domains
 * join the Default organization as members; anyone else is told why they may not.
 */
export function createOidcService(deps: {
  db: Db;
  oidc: OidcRepo;
  /** Null when OIDC_ISSUER is not set: both steps then answer 404. */
  provider: {
    client: Pick<OidcClient, "authorizationUrl" | "exchange">;
    settings: OidcSsoSettings;
  } | null;
  accounts: Pick<AccountService, "startSession" | "defaultOrganizationId">;
  users: Pick<AccountRepo, "userByEmail" | "insertUser" | "updateUser" | "membershipsOf">;
  audit: AuditLog;
}) {
  const { oidc, audit, users } = deps;

  function configured() {
    if (!deps.provider) throw new AppError("NOT_FOUND", NOT_CONFIGURED);
    return deps.provider;
  }

  const refuse = (
    reason: OidcRefusalReason,
    message: string,
    about: { user?: UserRow; email?: string } = {},
  ): Refusal => ({
    signedIn: false,
    reason,
    message,
    user: about.user ?? null,
    email: about.email ?? about.user?.email ?? null,
  });

  /** The user the provider vouched for, made or linked, and the organizations they joined. */
  async function admit(
    claims: OidcClaims,
    settings: OidcSsoSettings,
    origin: AuditOrigin,
    tx: Db,
  ): Promise<{ user: UserRow; joined: string[] } | Refusal> {
    const linked = await oidc.userByIdentity(settings.issuer, claims.subject, tx);
    if (linked) return { user: linked, joined: [] };
    if (!claims.email) {
      return refuse(
        "email_missing",
        "The identity provider did not tell us your e-mail address, which agentdesk needs to know who you are. Ask your administrator to let agentdesk read it (the email scope).",
      );
    }
    const email = normalizeEmail(claims.email);
    if (!claims.emailVerified) {
      return refuse(
        "email_unverified",
        `The identity provider has not verified the e-mail address ${email}. Verify it there, then sign in again.`,
        { email },
      );
    }
    // One sign-in at a time per e-mail, so two tabs do not make the same user twice.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`agentdesk.oidc:${email}`}))`);
    const existing = await users.userByEmail(email, tx);
    if (existing) {
      if (existing.oidcSubject !== null) {
        return refuse(
          "identity_conflict",
          `The account ${email} is linked to another single sign-on identity. Ask an administrator for help.`,
          { user: existing },
        );
      }
      const user = await users.updateUser(
        existing.id,
        { oidcIssuer: settings.issuer, oidcSubject: claims.subject },
        tx,
      );
      return { user: user!, joined: [] };
    }
    const invitations = await oidc.pendingInvitations(email, tx);
    const domain = email.slice(email.lastIndexOf("@") + 1);
    const domainAllowed = settings.allowedDomains.includes(domain);
    if (invitations.length === 0 && !domainAllowed) {
      return settings.allowedDomains.length === 0
        ? refuse(
            "not_invited",
            `There is no account or invitation for ${email} here. Ask an administrator of your organization to invite you.`,
            { email },
          )
        : refuse(
            "domain_not_allowed",
            `There is no account or invitation for ${email}, and new accounts from ${domain} are not allowed here. Ask an administrator of your organization to invite you.`,
            { email },
          );
    }
    const user = await users.insertUser(
      {
        id: newId(),
        email,
        name: claims.name,
        oidcIssuer: settings.issuer,
        oidcSubject: claims.subject,
      },
      tx,
    );
    const grants =
      invitations.length > 0
        ? invitations
        : [
            {
              id: null,
              organizationId: await deps.accounts.defaultOrganizationId(tx),
              role: "member" as const,
            },
          ];
    const joined: string[] = [];
    for (const grant of grants) {
      if (grant.id) await oidc.markInvitationAccepted(grant.id, tx);
      if (!(await oidc.join(grant.organizationId, user.id, grant.role, tx))) continue;
      joined.push(grant.organizationId);
      await audit.record(
        {
          organizationId: grant.organizationId,
          action: "member.joined",
          actor: { type: "user", id: user.id, email },
          target: { type: "user", id: user.id },
          origin,
          details: {
            role: grant.role,
            via: "oidc",
            ...(grant.id ? { invitationId: grant.id } : {}),
          },
        },
        tx,
      );
    }
    return { user, joined };
  }

  /** The claims of the provider's answer, once it is known to answer this browser's sign-in. */
  async function confirmedClaims(
    provider: Pick<OidcClient, "exchange">,
    settings: OidcSsoSettings,
    input: { query: URLSearchParams; boundState: string | null },
  ): Promise<OidcClaims | Refusal> {
    const state = input.query.get("state");
    const login = state ? await oidc.takeLogin(state) : null;
    if (!login || input.boundState !== state) {
      return refuse(
        "state_invalid",
        "This sign-in link has expired, was already used, or was not started in this browser. Start again from the sign-in page.",
      );
    }
    const callbackUrl = new URL(settings.redirectUri);
    callbackUrl.search = input.query.toString();
    try {
      return await provider.exchange(callbackUrl, login);
    } catch (error) {
      if (!(error instanceof OidcProviderRefusal)) throw error;
      return refuse("provider_refused", `${error.message}. Start again from the sign-in page.`);
    }
  }

  async function signIn(
    claims: OidcClaims,
    settings: OidcSsoSettings,
    origin: AuditOrigin,
  ): Promise<Extract<OidcOutcome, { signedIn: true }> | Refusal> {
    return deps.db.transaction(async (tx) => {
      const admitted = await admit(claims, settings, origin, tx);
      if ("signedIn" in admitted) return admitted;
      const { user, joined } = admitted;
      const session = await deps.accounts.startSession(user, origin, tx, joined[0]);
      await audit.record(
        {
          organizationId: joined[0] ?? session.view.organizations[0]?.id ?? null,
          action: "login.succeeded",
          actor: { type: "user", id: user.id, email: user.email },
          origin,
          details: { method: "oidc" },
        },
        tx,
      );
      return { signedIn: true as const, session };
    });
  }

  return {
    /** Whether SSO is on (the console shows its button). */
    enabled: deps.provider !== null,

    /** Starts a sign-in: the provider's URL to send the browser to, and the state to bind. */
    async begin(): Promise<{ url: string; state: string }> {
      const { client: provider } = configured();
      const checks = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = await provider.authorizationUrl(checks);
      await oidc.deleteExpiredLogins();
      await oidc.insertLogin({ ...checks, expiresAt: new Date(Date.now() + LOGIN_TTL_MS) });
      return { url, state: checks.state };
    },

    /**
     * Ends a sign-in with the provider's answer (the callback's query). `boundState` is the
     * state this browser started with (its cookie): a callback opened in another browser, or
     * replayed, is refused.
     */
    async finish(
      input: { query: URLSearchParams; boundState: string | null },
      origin: AuditOrigin,
    ): Promise<OidcOutcome> {
      const { client: provider, settings } = configured();
      const claims = await confirmedClaims(provider, settings, input);
      const outcome = "signedIn" in claims ? claims : await signIn(claims, settings, origin);
      if (outcome.signedIn) return outcome;
      const { user, email, ...refusal } = outcome;
      await audit.record({
        organizationId: user ? ((await users.membershipsOf(user.id))[0]?.id ?? null) : null,
        action: "login.failed",
        actor: { type: "user", id: user?.id ?? null, email: email ?? null },
        origin,
        details: { method: "oidc", reason: refusal.reason },
      });
      return refusal;
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
