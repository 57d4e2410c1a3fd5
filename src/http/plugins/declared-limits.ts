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
  /**
   * When it counts. `once-valid` (the default): once the body is validated, so `key` may read
   * the body and an invalid request counts nowhere. `on-arrival`: as the request arrives, right
   * after authentication and before the body is read, so every request counts (an invalid or
   * oversized body included) and a refused one's body is never read.
   */
  counted?: "once-valid" | "on-arrival";
  /**
   * The 429: its message, followed by "; retry in N seconds" (type RATE_LIMITED); or the error
   * to throw, given the seconds to wait.
   */
  refusal: string | ((retryAfterSeconds: number) => Error);
  /** Every answer it counts says where the caller stands: X-RateLimit-Limit, -Remaining, -Reset. */
  announced?: true;
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

/** A wait as @fastify/rate-limit words it in its own refusals: "45 seconds", "1 minute". */
export function waitInWords(seconds: number): string {
  if (seconds < 1) return `${seconds * 1000} ms`;
  const [amount, unit] =
    seconds < 60
      ? [seconds, "second"]
      : seconds < 3_600
        ? [Math.round(seconds / 60), "minute"]
        : [Math.round(seconds / 3_600), "hour"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`;
}

function refusalOf(limit: RouteLimit, retryAfterSeconds: number): Error {
  return typeof limit.refusal === "string"
    ? new AppError("RATE_LIMITED", `${limit.refusal}; retry in ${retryAfterSeconds} seconds`)
    : limit.refusal(retryAfterSeconds);
}

/** A hook that counts the request against each check in turn, refusing at the first exceeded. */
function withinLimits(checks: readonly Check[]) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    for (const { limit, count } of checks) {
      if (limit.counts && !limit.counts(request)) continue;
      const counted = await count(request);
      // Only an allow list answers "allowed" without counting, and these counters have none.
      if (counted.isAllowed) continue;
      if (limit.announced) {
        reply.header("X-RateLimit-Limit", String(counted.max));
        reply.header("X-RateLimit-Remaining", String(counted.remaining));
        reply.header("X-RateLimit-Reset", String(counted.ttlInSeconds));
      }
      if (counted.isExceeded) {
        reply.header("Retry-After", String(counted.ttlInSeconds));
        throw refusalOf(limit, counted.ttlInSeconds);
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
    if (route.config?.rateLimit !== undefined) {
      throw new Error(`${route.method} ${route.url} sets config.rateLimit: declare config.limits`);
    }
    const checks = (route.config?.limits ?? []).map((limit) => checkOf(limit, route));
    const onArrival = checks.filter(({ limit }) => limit.counted === "on-arrival");
    const onceValid = checks.filter(({ limit }) => limit.counted !== "on-arrival");
    if (onArrival.length > 0) {
      route.onRequest = [...hooksOf(route.onRequest), withinLimits(onArrival)];
    }
    if (onceValid.length > 0) {
      route.preHandler = [...hooksOf(route.preHandler), withinLimits(onceValid)];
    }
  });
  return createCounter;
}
