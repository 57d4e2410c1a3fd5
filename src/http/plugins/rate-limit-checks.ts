import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../lib/errors.ts";
import type { App } from "../app-types.ts";

/** One counter made by @fastify/rate-limit's `createRateLimit`, and what its refusal says. */
export type CountedLimit = {
  count: ReturnType<App["createRateLimit"]>;
  /** The start of the 429's message, e.g. "Too many messages from this address". */
  refusal: string;
  /** Which requests it counts; every request when absent. */
  counts?: (request: FastifyRequest) => boolean;
};

/**
 * A preHandler that checks several counters in turn, where the plugin's own hooks apply one
 * limit per route: the first that is exceeded refuses with 429 RATE_LIMITED and Retry-After, and
 * the counters after it are not counted. As a preHandler it runs once the body is validated, so
 * a key may read the body and an invalid request counts nowhere.
 */
export function withinLimits(limits: readonly CountedLimit[]) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    for (const limit of limits) {
      if (limit.counts && !limit.counts(request)) continue;
      const counted = await limit.count(request);
      if (!counted.isAllowed && counted.isExceeded) {
        reply.header("Retry-After", String(counted.ttlInSeconds));
        throw new AppError(
          "RATE_LIMITED",
          `${limit.refusal}; retry in ${counted.ttlInSeconds} seconds`,
        );
      }
    }
  };
}
