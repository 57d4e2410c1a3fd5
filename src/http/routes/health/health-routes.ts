import { z } from "zod";
import { AppError } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";

export type HealthCheck = () => Promise<boolean>;

/** GET /api/health: 200 once the database answers (and, where it runs, the worker is up). */
export function registerHealthRoutes(app: App, isHealthy: HealthCheck): void {
  app.get(
    "/api/health",
    {
      config: { auth: "public" },
      schema: {
        operationId: "getHealth",
        tags: ["health"],
        summary: "Liveness and readiness",
        response: { 200: z.object({ status: z.literal("ok") }) },
        errors: { 503: "Not ready: the database does not answer, or the worker is down" },
      },
    },
    async () => {
      if (!(await isHealthy())) throw new AppError("SERVICE_UNAVAILABLE", "Not ready");
      return { status: "ok" as const };
    },
  );
}
