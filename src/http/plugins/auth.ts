import type { FastifyReply, FastifyRequest } from "fastify";
import type { ApiKeyService, AuthenticatedKey } from "../../domain/api-keys/api-key-service.ts";
import type { Caller } from "../../domain/caller.ts";
import { AppError, unauthorized } from "../../lib/errors.ts";
import { constantTimeEquals } from "../../lib/secrets.ts";

declare module "fastify" {
  interface FastifyRequest {
    auth: AuthenticatedKey | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string") return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** How a route answers a missing or invalid key (the spec has per-endpoint quirks). */
export type AuthFailure = (request: FastifyRequest, reply: FastifyReply) => never | Promise<void>;

const rejectUnauthorized: AuthFailure = () => {
  throw unauthorized("A valid API key is required (Authorization: Bearer <key>)");
};

export function createAuthHooks(apiKeys: Pick<ApiKeyService, "authenticate">) {
  async function resolve(request: FastifyRequest): Promise<AuthenticatedKey | null> {
    const token = bearerToken(request);
    request.auth = token ? await apiKeys.authenticate(token) : null;
    return request.auth;
  }

  return {
    /** preHandler: a valid key is required. */
    required(onFailure: AuthFailure = rejectUnauthorized) {
      return async (request: FastifyRequest, reply: FastifyReply) => {
        if (!(await resolve(request))) return onFailure(request, reply);
      };
    },
    /** preHandler: a key is used when present and valid; the route decides what anonymity may do. */
    optional() {
      return async (request: FastifyRequest) => {
        await resolve(request);
      };
    },
  };
}

export type AuthHooks = ReturnType<typeof createAuthHooks>;

/** The caller's context; only for routes behind `required()`. */
export function contextOf(request: FastifyRequest): Caller {
  if (!request.auth) throw unauthorized();
  return { ...request.auth, requestId: request.id };
}

/** preHandler for /api/admin/*: the configured ADMIN_TOKEN as a bearer token. */
export function requireAdminToken(adminToken: string) {
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token || !constantTimeEquals(token, adminToken)) {
      throw new AppError("UNAUTHORIZED", "A valid admin token is required");
    }
  };
}
