import { z } from "zod";
import type { Readiness } from "../../../ops/readiness.ts";
import type { App } from "../../app-types.ts";

const checkState = z.enum(["ok", "down", "unknown"]);

const readinessBody = z
  .object({
    status: z.enum(["ok", "unavailable"]),
    checks: z.object({
      database: checkState.describe("The database answers a query within 2 s"),
      migrations: checkState.describe(
        "The database has recorded the latest migration of this build; unknown while it is down",
      ),
      jobs: checkState.describe("This process's job queue is started and not stopped"),
      redis: checkState
        .optional()
        .describe(
          "Redis answers PING within 2 s; present only where REDIS_URL is set (not on a worker)",
        ),
    }),
  })
  .describe("Readiness, with the state of each part");

/**
 * GET /api/health/ready: 200 when this process can serve (database, migrations, job queue, and
 * Redis where REDIS_URL is set), else 503 naming the parts that are down. For load balancers;
 * /api/health stays the liveness.
 */
export function registerReadinessRoute(app: App, check: () => Promise<Readiness>): void {
  app.get(
    "/api/health/ready",
    {
      config: { auth: "public" },
      schema: {
        operationId: "getReadiness",
        tags: ["health"],
        summary: "Readiness for load balancers",
        response: { 200: readinessBody, 503: readinessBody },
      },
    },
    async (_request, reply) => {
      const { ready, checks } = await check();
      reply.code(ready ? 200 : 503);
      return { status: ready ? ("ok" as const) : ("unavailable" as const), checks };
    },
  );
}
