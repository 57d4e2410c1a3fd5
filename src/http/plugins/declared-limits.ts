import rateLimit from "@fastify/rate-limit";
import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { Redis } from "ioredis";
import { AppError } from "../../lib/errors.ts";
import type { App } from "../app-types.ts";
import { rateLimitStorage } from "./memory-rate-limit-store.ts";

const WINDOW_MS = { minute: 60_000, hour: 3_600_000 } as const;

/**
 * One rate limit of a route, declared next to its access: `config: { auth, limits: [...] }`.
 * A route's limits are checked in the order declared; the first exceeded refuses with 429 (and
 * Retry-After), and the ones after it are not counted.
 */
export type RouteLimit = {
  /**
   * The counter: its keys are `<name>:<key>`, in Redis under `agentdesk:rate-limit:` with
   * REDIS_URL. Routes that count together (the public chat and its twins) share one declaration.
   */
  name: string;
  /** Whom a request counts against: its address, the body's visitorId, the path's agent. */
  key: (request: FastifyRequest) => string;
  /** Requests allowed per key in each fixed window. */
  max: number;
  per: keyof typeof WINDOW_MS;
  /** Which requests it counts; every request when absent. */
  counts?: (request: FastifyRequest) => boolean;
  /** The 429's message, followed by "; retry in N seconds" (type RATE_LIMITED). */
  refusal: string;
};

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's rate limits, checked in order (src/http/plugins/declared-limits.ts). */
    limits?: readonly RouteLimit[];
  }
}

/** Makes a counter in the server's one store (the per-key limit uses it directly). */
export type CounterFactory = App["createRateLimit"];
type Counter = ReturnType<CounterFactory>;
type Check = { limit: RouteLimit; count: Counter };

/** A hook that counts the request against each check in turn, refusing at the first exceeded. */
function withinLimits(checks: readonly Check[]) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    for (const { limit, count } of checks) {
      if (limit.counts && !limit.counts(request)) continue;
      const counted = await count(request);
      // Only an allow list answers "allowed" without counting, and these counters have none.
      if (counted.isAllowed) continue;
      if (counted.isExceeded) {
        reply.header("Retry-After", String(counted.ttlInSeconds));
        throw new AppError(
          "RATE_LIMITED",
          `${limit.refusal}; retry in ${counted.ttlInSeconds} seconds`,
        );
      }
    }
  };
}

const hooksOf = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/**
 * Enforces every route's `config.limits`, with one store for the whole server: Redis, shared by
 * every process, when the service has one; else this process's memory. Register it before the
 * routes. Returns the store's counter factory, for the per-key limit (key-rate-limiter.ts).
 */
export async function registerDeclaredLimits(
  app: App,
  redis: Redis | null,
): Promise<CounterFactory> {
  let counterFactory: CounterFactory | undefined;
  // @fastify/rate-limit only counts here: its own route hooks stay in this empty scope.
  await app.register(async (scope) => {
    await scope.register(rateLimit, { global: false, ...rateLimitStorage(redis) });
    counterFactory = scope.createRateLimit;
  });
  const createCounter = counterFactory!;

  const counters = new Map<string, Check>();
  const checkOf = (limit: RouteLimit, route: RouteOptions): Check => {
    const known = counters.get(limit.name);
    if (known && known.limit !== limit) {
      throw new Error(
        `${route.method} ${route.url} declares a second limit named ${limit.name}: share one`,
      );
    }
    if (known) return known;
    const check = {
      limit,
      count: createCounter({
        max: limit.max,
        timeWindow: WINDOW_MS[limit.per],
        keyGenerator: (request) => `${limit.name}:${limit.key(request)}`,
      }),
    };
    counters.set(limit.name, check);
    return check;
  };

  app.addHook("onRoute", (route) => {
    const checks = (route.config?.limits ?? []).map((limit) => checkOf(limit, route));
    // A preHandler: once the body is validated, so a key may read the body and an invalid
    // request counts nowhere.
    if (checks.length > 0) route.preHandler = [...hooksOf(route.preHandler), withinLimits(checks)];
  });
  return createCounter;
}
