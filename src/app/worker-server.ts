import type { App } from "../http/app-types.ts";
import { registerApiErrors, toErrorBody } from "../http/plugins/api-errors.ts";
import { registerAuth } from "../http/plugins/auth.ts";
import { createFastify } from "../http/plugins/server-options.ts";
import { type HealthCheck, registerHealthRoutes } from "../http/routes/health/health-routes.ts";
import { registerReadinessRoute } from "../http/routes/health/readiness-routes.ts";
import { registerMetricsRoute } from "../http/routes/metrics/metrics-routes.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../ops/metrics.ts";
import type { Readiness } from "../ops/readiness.ts";

/** Health probes and metrics ask for no body. */
const WORKER_BODY_LIMIT_BYTES = 1024;

export type WorkerServerDeps = {
  logger: Logger;
  trustProxy: number;
  isHealthy: HealthCheck;
  readiness: () => Promise<Readiness>;
  metrics: Metrics;
  /** Without it /metrics does not exist, as on the API listener. */
  adminToken: string | null;
};

/**
 * The worker role's own listener (WORKER_PORT): liveness, readiness and /metrics, so that a
 * worker process can be probed and scraped like an API process. It never listens by itself.
 */
export async function buildWorkerServer(deps: WorkerServerDeps): Promise<App> {
  const app = createFastify({
    ...deps,
    bodyLimitBytes: WORKER_BODY_LIMIT_BYTES,
    errorBody: toErrorBody,
  });
  registerApiErrors(app);
  // Only the admin token is ever checked here: no route of this listener takes a key or a
  // session.
  registerAuth(
    app,
    { apiKeys: { authenticate: async () => null }, sessions: { authenticate: async () => null } },
    { adminToken: deps.adminToken, publicOrigin: "" },
  );
  registerHealthRoutes(app, deps.isHealthy);
  registerReadinessRoute(app, deps.readiness);
  if (deps.adminToken) registerMetricsRoute(app, deps.metrics.registry);
  return app;
}
