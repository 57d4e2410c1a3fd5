import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { AuditActor, AuditedBy, AuditOrigin } from "../../domain/accounts/audit-log.ts";
import {
  type KeyScope,
  keyMay,
  type Permission,
  type Role,
  roleMay,
} from "../../domain/accounts/permissions.ts";
import {
  roleIn,
  type SessionIdentity,
  type SessionService,
} from "../../domain/accounts/session-service.ts";
import type { ApiKeyService } from "../../domain/api-keys/api-key-service.ts";
import type { Caller } from "../../domain/caller.ts";
import { AppError, unauthorized } from "../../lib/errors.ts";
import { constantTimeEquals } from "../../lib/secrets.ts";
import type { App } from "../app-types.ts";
import { isOwnOrigin } from "../own-origin.ts";
import { SESSION_COOKIE } from "./session-cookie.ts";

/**
 * Who may call a route, declared once on the route as `config: { auth }`:
 * - `key`: a valid API key (`Authorization: Bearer <key>`) or a signed-in session (the
 *   `agentdesk_session` cookie) acting in one of its user's organizations;
 * - `optional`: no credentials at all is an anonymous caller, whom the service scopes (public
 *   agents and datastores); a bearer token sent must be a valid key;
 * - `session`: a signed-in session, in no particular organization (the account's own routes);
 * - `optional-session`: the session when there is one, nobody otherwise (accepting an
 *   invitation, signed in or not);
 * - `public`: credentials are not read;
 * - `admin`: the operator's ADMIN_TOKEN as a bearer token (when it is set), or an instance
 *   administrator's session; another signed-in user is 403.
 * Next to it, `permission` names what the caller's role or key scopes must allow.
 */
export type RouteAuth = "key" | "optional" | "session" | "optional-session" | "public" | "admin";

/**
 * How a refused key is answered: the API's 401 envelope, or the spec's 403 on two endpoints
 * (follow-up/query in the envelope, the credits balance as plain text `Forbidden`).
 */
export type KeyRefusal = "unauthorized" | "forbidden" | "forbidden-text";

/** The caller a key or a session stands for, once it was let in. */
type AuthenticatedCaller = {
  organizationId: string;
  userId: string;
  /** Null when a session is calling. */
  apiKeyId: string | null;
  sessionId: string | null;
  /** The session user's role in the organization; null for a key. */
  role: Role | null;
  /** The only agents a scoped key may use; null is all of them. */
  agentIds: readonly string[] | null;
  /** Per-key limits (null for a session or a key without them). */
  rateLimitPerMinute: number | null;
  actor: AuditActor;
};

declare module "fastify" {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    refusal?: KeyRefusal;
    /** What the caller's role or scopes must allow; routes that take a key must say. */
    permission?: Permission;
    /** The query endpoint answers a missing permission with 401, as the spec says. */
    permissionRefusal?: "unauthorized";
    /** The route parameter that names the organization acted on (`/organizations/{id}/…`). */
    organizationParam?: string;
    /** The route parameter that names the agent acted on, checked against a key's agents. */
    agentParam?: string;
  }
  interface FastifyRequest {
    auth: AuthenticatedCaller | null;
    session: SessionIdentity | null;
  }
}

const KEY_REQUIRED = "A valid API key is required (Authorization: Bearer <key>)";
const NO_ORGANIZATION = "The session has no organization (X-Organization-Id)";
const NOT_INSTANCE_ADMIN =
  "Only instance administrators may use the admin API (leads, organizations)";
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const SECURITY_SCHEMES = {
  apiKey: {
    type: "http",
    scheme: "bearer",
    description: "An API key of the organization, issued with it, by the admin API or by a user.",
  },
  session: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description:
      "A signed-in session (POST /api/auth/login); X-Organization-Id picks the organization.",
  },
  adminToken: {
    type: "http",
    scheme: "bearer",
    description:
      "The operator's ADMIN_TOKEN, when it is set; instance administrators use their session.",
  },
} as const;

const SECURITY: Record<RouteAuth, ReadonlyArray<Record<string, string[]>>> = {
  key: [{ apiKey: [] }, { session: [] }],
  optional: [{}, { apiKey: [] }, { session: [] }],
  session: [{ session: [] }],
  "optional-session": [{}, { session: [] }],
  public: [],
  admin: [{ adminToken: [] }, { session: [] }],
};

/** The token of `Authorization: Bearer <token>`; null for any other header or none. */
function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string") return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** The error a refused caller gets; null for the credits balance's plain-text 403. */
function refusalError(config: { auth?: RouteAuth; refusal?: KeyRefusal }): AppError | null {
  if (config.auth === "admin") return unauthorized("A valid admin token is required");
  if (config.auth === "session" || config.auth === "optional-session") {
    return unauthorized("Sign in first (POST /api/auth/login)");
  }
  if (config.refusal === "forbidden-text") return null;
  if (config.refusal === "forbidden") return new AppError("FORBIDDEN", KEY_REQUIRED);
  return unauthorized(KEY_REQUIRED);
}

/** What the OpenAPI document says of a route's access: its `security` and its refusal. */
export function accessDocumentation(config: {
  auth: RouteAuth;
  refusal?: KeyRefusal | undefined;
  permission?: Permission | undefined;
}) {
  const security = SECURITY[config.auth];
  if (config.auth === "public" || config.auth === "optional-session") {
    return { security, refusal: null };
  }
  const error = refusalError(config);
  const description =
    config.auth === "optional"
      ? "Credentials were sent but are not a valid API key or session"
      : config.auth === "admin"
        ? "No valid admin token or instance administrator's session"
        : config.auth === "session"
          ? "Not signed in"
          : "No valid API key or session";
  return {
    security,
    refusal: error
      ? { status: error.status, description, contentType: "application/json" as const }
      : {
          status: 403,
          description: `${description}: the text Forbidden`,
          contentType: "text/plain" as const,
        },
  };
}

/** A route must say who may call it, and a keyed route what it needs. */
function requireDeclaredAccess(route: RouteOptions): void {
  const config = route.config;
  if (!config?.auth && !route.schema?.hide) {
    throw new Error(`${route.method} ${route.url} does not declare config.auth`);
  }
  if ((config?.auth === "key" || config?.auth === "optional") && !config.permission) {
    throw new Error(`${route.method} ${route.url} does not declare config.permission`);
  }
}

export function originOf(request: FastifyRequest): AuditOrigin {
  const agent = request.headers["user-agent"];
  return { ip: request.ip, userAgent: typeof agent === "string" ? agent : null };
}

export type AuthDeps = {
  apiKeys: Pick<ApiKeyService, "authenticate">;
  sessions: Pick<SessionService, "authenticate">;
};

export type AuthSettings = {
  /** The operator's ADMIN_TOKEN; null when it is not set (instance administrators only). */
  adminToken: string | null;
  /** PUBLIC_URL's origin: cookie requests with unsafe methods must come from it (or the host). */
  publicOrigin: string;
};

/** A cookie request that changes something must come from our own pages (CSRF). */
function refuseForeignOrigin(request: FastifyRequest, publicOrigin: string): void {
  if (!UNSAFE_METHODS.has(request.method)) return;
  const stated = request.headers.origin ?? request.headers.referer;
  if (!isOwnOrigin(request, stated, publicOrigin)) {
    throw new AppError(
      "FORBIDDEN",
      "A request signed in with a cookie must come from this service's own pages (Origin)",
    );
  }
}

function keyCaller(
  key: NonNullable<Awaited<ReturnType<ApiKeyService["authenticate"]>>>,
): AuthenticatedCaller {
  return {
    organizationId: key.organizationId,
    userId: key.userId,
    apiKeyId: key.apiKeyId,
    sessionId: null,
    role: null,
    agentIds: key.agentIds,
    rateLimitPerMinute: key.rateLimitPerMinute,
    actor: { type: "key", id: key.apiKeyId },
  };
}

/** The organization a session request acts in: the route's, the header's, or the active one. */
function sessionCaller(request: FastifyRequest, session: SessionIdentity): AuthenticatedCaller {
  const config = request.routeOptions.config;
  const params = request.params as Record<string, string> | undefined;
  const header = request.headers["x-organization-id"];
  const organizationId =
    (config.organizationParam ? params?.[config.organizationParam] : undefined) ??
    (typeof header === "string" && header !== "" ? header : null) ??
    session.activeOrganizationId;
  if (!organizationId) throw unauthorized(NO_ORGANIZATION);
  const role = roleIn(session, organizationId);
  if (!role) {
    throw new AppError("FORBIDDEN", `You are not a member of organization ${organizationId}`);
  }
  return {
    organizationId,
    userId: session.userId,
    apiKeyId: null,
    sessionId: session.sessionId,
    role,
    agentIds: null,
    rateLimitPerMinute: null,
    actor: { type: "user", id: session.userId, email: session.email },
  };
}

/** Why the caller's role, scopes or agents do not allow this route; null when they do. */
function missingPermission(
  request: FastifyRequest,
  caller: AuthenticatedCaller,
  scopes: readonly KeyScope[] | null,
): string | null {
  const config = request.routeOptions.config;
  const params = request.params as Record<string, string>;
  if (config.organizationParam && caller.apiKeyId) {
    const named = params[config.organizationParam];
    if (named !== caller.organizationId) return `This key cannot act on organization ${named}`;
  }
  const permission = config.permission;
  if (permission && caller.role && !roleMay(caller.role, permission)) {
    return `The role ${caller.role} does not allow ${permission}`;
  }
  if (permission && caller.apiKeyId && !keyMay(scopes, permission)) {
    return `This key's scopes do not include ${permission.replace(/^annotations:.*/, "annotations")}`;
  }
  if (config.agentParam && caller.agentIds) {
    const agentId = params[config.agentParam];
    if (agentId && !caller.agentIds.includes(agentId))
      return `This key cannot use agent ${agentId}`;
  }
  return null;
}

/** Refuses, as the route says (403, or 401 on the query endpoint), a missing permission. */
function refuseMissingPermission(
  request: FastifyRequest,
  caller: AuthenticatedCaller,
  scopes: readonly KeyScope[] | null,
): void {
  const message = missingPermission(request, caller, scopes);
  if (message === null) return;
  throw request.routeOptions.config.permissionRefusal === "unauthorized"
    ? unauthorized(message)
    : new AppError("FORBIDDEN", message);
}

/**
 * Enforces each route's `config.auth` and `config.permission` before anything else runs:
 * before the body is read or validated and before any lookup, so a refused caller learns
 * nothing about the request or the resources it names. A route that declares no access fails
 * at startup.
 */
export function registerAuth(app: App, deps: AuthDeps, settings: AuthSettings): void {
  app.decorateRequest("auth", null);
  app.decorateRequest("session", null);
  app.addHook("onRoute", requireDeclaredAccess);
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (!config.auth || config.auth === "public") return;
    const token = bearerToken(request);
    const cookie = request.cookies?.[SESSION_COOKIE];

    if (config.auth === "admin") {
      // A bearer token is the operator's ADMIN_TOKEN or nothing (without one, nothing).
      if (token) {
        if (settings.adminToken && constantTimeEquals(token, settings.adminToken)) return;
        throw refusalError(config);
      }
      const session = cookie ? await deps.sessions.authenticate(cookie) : null;
      if (!session) throw refusalError(config);
      if (!session.instanceAdmin) throw new AppError("FORBIDDEN", NOT_INSTANCE_ADMIN);
      refuseForeignOrigin(request, settings.publicOrigin);
      request.session = session;
      return;
    }

    if (config.auth === "session" || config.auth === "optional-session") {
      const session = cookie ? await deps.sessions.authenticate(cookie) : null;
      if (session) refuseForeignOrigin(request, settings.publicOrigin);
      else if (config.auth === "session") throw refusalError(config);
      request.session = session;
      return;
    }

    // `key` and `optional`: a bearer key wins over a cookie.
    if (request.headers.authorization !== undefined) {
      const key = token ? await deps.apiKeys.authenticate(token) : null;
      if (key) {
        request.auth = keyCaller(key);
        if (
          config.refusal === "forbidden-text" &&
          missingPermission(request, request.auth, key.scopes) !== null
        ) {
          return reply.code(403).type("text/plain; charset=utf-8").send("Forbidden");
        }
        refuseMissingPermission(request, request.auth, key.scopes);
        return;
      }
    } else if (cookie) {
      const session = await deps.sessions.authenticate(cookie);
      if (session) {
        refuseForeignOrigin(request, settings.publicOrigin);
        request.session = session;
        request.auth = sessionCaller(request, session);
        refuseMissingPermission(request, request.auth, null);
        return;
      }
    }
    // A visitor with a stale cookie is still a visitor where visitors may come.
    if (config.auth === "optional" && request.headers.authorization === undefined) return;
    const error = refusalError(config);
    if (!error) return reply.code(403).type("text/plain; charset=utf-8").send("Forbidden");
    throw error;
  });
}

/** The caller of a `key` route. */
export function callerOf(request: FastifyRequest): Caller {
  const auth = request.auth;
  if (!auth) throw unauthorized();
  return {
    organizationId: auth.organizationId,
    userId: auth.userId,
    apiKeyId: auth.apiKeyId,
    agentIds: auth.agentIds,
    actor: auth.actor,
    origin: originOf(request),
    requestId: request.id,
  };
}

/** The session of a `session` route. */
export function sessionOf(request: FastifyRequest): SessionIdentity {
  if (!request.session) throw unauthorized("Sign in first (POST /api/auth/login)");
  return request.session;
}

/**
 * Who did it and from where, for the audit log: the key, the session's user, or the
 * operator's token.
 */
export function auditedBy(request: FastifyRequest): AuditedBy {
  const actor: AuditActor = request.auth
    ? request.auth.actor
    : request.session
      ? { type: "user", id: request.session.userId, email: request.session.email }
      : { type: "admin", id: null };
  return { actor, origin: originOf(request) };
}

/** The organization of a request's caller, for the access log; undefined when it has none. */
export function organizationIdOf(request: FastifyRequest): string | undefined {
  return request.auth?.organizationId;
}

/** The caller of an `optional` route: null when anonymous. */
export function optionalCallerOf(request: FastifyRequest): Caller | null {
  return request.auth ? callerOf(request) : null;
}
