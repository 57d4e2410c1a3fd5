import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { ApiKeyService, AuthenticatedKey } from "../../domain/api-keys/api-key-service.ts";
import type { Caller } from "../../domain/caller.ts";
import { AppError, unauthorized } from "../../lib/errors.ts";
import { constantTimeEquals } from "../../lib/secrets.ts";
import type { App } from "../app-types.ts";

/**
 * Who may call a route, declared once on the route as `config: { auth }`:
 * - `key`: a valid API key (`Authorization: Bearer <key>`);
 * - `optional`: no credentials at all is an anonymous caller, whom the service scopes (public
 *   agents and datastores); any credentials sent must be a valid key;
 * - `public`: credentials are not read;
 * - `admin`: the operator's ADMIN_TOKEN as a bearer token.
 */
export type RouteAuth = "key" | "optional" | "public" | "admin";

/**
 * How a refused key is answered: the API's 401 envelope, or the spec's 403 on two endpoints
 * (follow-up/query in the envelope, the credits balance as plain text `Forbidden`).
 */
export type KeyRefusal = "unauthorized" | "forbidden" | "forbidden-text";

declare module "fastify" {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    refusal?: KeyRefusal;
  }
  interface FastifyRequest {
    auth: AuthenticatedKey | null;
  }
}

const KEY_REQUIRED = "A valid API key is required (Authorization: Bearer <key>)";

export const SECURITY_SCHEMES = {
  apiKey: {
    type: "http",
    scheme: "bearer",
    description: "An API key of the organization, issued with it or by the admin API.",
  },
  adminToken: {
    type: "http",
    scheme: "bearer",
    description: "The operator's ADMIN_TOKEN; the admin API exists only when it is set.",
  },
} as const;

const SECURITY: Record<RouteAuth, ReadonlyArray<Record<string, string[]>>> = {
  key: [{ apiKey: [] }],
  optional: [{}, { apiKey: [] }],
  public: [],
  admin: [{ adminToken: [] }],
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
  if (config.refusal === "forbidden-text") return null;
  if (config.refusal === "forbidden") return new AppError("FORBIDDEN", KEY_REQUIRED);
  return unauthorized(KEY_REQUIRED);
}

/** What the OpenAPI document says of a route's access: its `security` and its refusal. */
export function accessDocumentation(config: { auth: RouteAuth; refusal?: KeyRefusal }) {
  const security = SECURITY[config.auth];
  if (config.auth === "public") return { security, refusal: null };
  const error = refusalError(config);
  const description =
    config.auth === "optional"
      ? "Credentials were sent but are not a valid API key"
      : config.auth === "admin"
        ? "No valid admin token"
        : "No valid API key";
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

/** A route must say who may call it; only routes hidden from the document may stay silent. */
function requireDeclaredAccess(route: RouteOptions): void {
  if (!route.config?.auth && !route.schema?.hide) {
    throw new Error(`${route.method} ${route.url} does not declare config.auth`);
  }
}

/**
 * Enforces each route's `config.auth` before anything else runs: before the body is read or
 * validated and before any lookup, so a refused caller learns nothing about the request or the
 * resources it names. A route that declares no access fails at startup.
 */
export function registerAuth(
  app: App,
  deps: { apiKeys: Pick<ApiKeyService, "authenticate">; adminToken: string | null },
): void {
  app.decorateRequest("auth", null);
  app.addHook("onRoute", requireDeclaredAccess);
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (!config.auth || config.auth === "public") return;
    if (config.auth === "admin") {
      const token = bearerToken(request);
      if (deps.adminToken && token && constantTimeEquals(token, deps.adminToken)) return;
      throw refusalError(config);
    }
    if (config.auth === "optional" && request.headers.authorization === undefined) return;
    const token = bearerToken(request);
    request.auth = token ? await deps.apiKeys.authenticate(token) : null;
    if (request.auth) return;
    const error = refusalError(config);
    if (!error) return reply.code(403).type("text/plain; charset=utf-8").send("Forbidden");
    throw error;
  });
}

/** The caller of a `key` route. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.auth) throw unauthorized();
  return { ...request.auth, requestId: request.id };
}

/** The organization of a request's API key, for the access log; undefined when it has none. */
export function organizationIdOf(request: FastifyRequest): string | undefined {
  return request.auth?.organizationId;
}

/** The caller of an `optional` route: null when anonymous. */
export function optionalCallerOf(request: FastifyRequest): Caller | null {
  return request.auth ? callerOf(request) : null;
}
