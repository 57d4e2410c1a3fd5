import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../lib/errors.ts";
import type { App } from "../app-types.ts";
import type { CounterFactory } from "./declared-limits.ts";

const MINUTE_MS = 60_000;

type Limited = FastifyRequest & {
  auth: NonNullable<FastifyRequest["auth"]> & { apiKeyId: string; rateLimitPerMinute: number };
};

const isLimited = (request: FastifyRequest): request is Limited =>
  request.auth?.apiKeyId != null && request.auth.rateLimitPerMinute != null;

/**
 * The `rateLimitPerMinute` of a key made by a user (DESIGN.md §10): a one-minute window per
 * key, counted in Redis when the service has one (so it holds across API processes), in this
 * process otherwise. It runs after authentication, on every route a limited key calls (sessions
 * and keys without a limit are not counted), and before the body is read: a refused request
 * costs nothing more. Every answer to a limited key says where it stands (RateLimit-*).
 */
export function registerKeyRateLimiter(app: App, createCounter: CounterFactory): void {
  // A counter of the server's one store (declared-limits.ts); the limit is the key's own.
  const countRequest = createCounter({
    max: (request) => (request as Limited).auth.rateLimitPerMinute,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `api-key:${(request as Limited).auth.apiKeyId}`,
  });

  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLimited(request)) return;
    const counted = await countRequest(request);
    // Only an allow list answers "allowed" without counting, and this limiter has none.
    if (counted.isAllowed) return;
    reply.header("RateLimit-Limit", String(counted.max));
    reply.header("RateLimit-Remaining", String(counted.remaining));
    reply.header("RateLimit-Reset", String(counted.ttlInSeconds));
    if (counted.isExceeded) {
      reply.header("Retry-After", String(counted.ttlInSeconds));
      throw new AppError(
        "RATE_LIMITED",
        `This API key may make ${counted.max} requests a minute; retry in ${counted.ttlInSeconds} seconds`,
      );
    }
  });
}
