import type { Registry } from "prom-client";
import type { App } from "../../app-types.ts";

/**
 * GET /metrics: the process's metrics in the Prometheus text format, for the admin token only.
 * Registered only when ADMIN_TOKEN is set, so without one the path does not exist (404).
 */
export function registerMetricsRoute(app: App, registry: Registry): void {
  app.get(
    "/metrics",
    // An operator's endpoint in Prometheus' own format, not part of the JSON API's document.
    { config: { auth: "admin" }, schema: { hide: true } },
    async (_request, reply) => {
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
}
