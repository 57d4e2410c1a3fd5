import cors from "@fastify/cors";
import type { Redis } from "ioredis";
import type { LeadService } from "../domain/leads/lead-service.ts";
import type { App } from "../http/app-types.ts";
import { registerDeclaredLimits } from "../http/plugins/declared-limits.ts";
import {
  hasUnstorableText,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  TOO_DEEP_MESSAGE,
  UNSTORABLE_TEXT_MESSAGE,
} from "../http/plugins/json-body.ts";
import { registerOpenApi } from "../http/plugins/openapi.ts";
import { createFastify } from "../http/plugins/server-options.ts";
import {
  registerSiteErrors,
  SiteError,
  siteErrorBody,
  toSiteErrorBody,
} from "../http/plugins/site-errors.ts";
import { type HealthCheck, registerHealthRoutes } from "../http/routes/health/health-routes.ts";
import { registerReadinessRoute } from "../http/routes/health/readiness-routes.ts";
import { registerLeadRoutes } from "../http/routes/leads/lead-routes.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../ops/metrics.ts";
import type { Readiness } from "../ops/readiness.ts";

/** Site forms send a handful of short fields; anything bigger is not a form. */
const SITE_BODY_LIMIT_BYTES = 16 * 1024;

export type SiteServerDeps = {
  logger: Logger;
  trustProxy: number;
  isHealthy: HealthCheck;
  readiness: () => Promise<Readiness>;
  metrics: Metrics;
  leads: LeadService;
  rateLimitPerMinute: number;
  allowedOrigins: string[];
  /** Shared rate-limit counters across processes; in memory when absent. */
  redis: Redis | null;
};

/** The marketing-site listener: POST /api/leads and JSON errors for everything else. */
export async function buildSiteServer(deps: SiteServerDeps): Promise<App> {
  const app = createFastify({
    ...deps,
    bodyLimitBytes: SITE_BODY_LIMIT_BYTES,
    errorBody: toSiteErrorBody,
  });
  registerSiteErrors(app);

  // Forms post JSON, sometimes as text/plain to skip the CORS preflight: read every body as JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(
        new SiteError(
          400,
          "validation_error",
          TOO_DEEP_MESSAGE,
          "Send the form fields as one flat JSON object of strings and numbers.",
        ),
      );
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body as string);
    } catch {
      done(
        new SiteError(
          400,
          "invalid_json",
          "The request body is not valid JSON",
          'Send a JSON object such as {"name": "Jane", "email": "jane@example.com"}.',
        ),
      );
      return;
    }
    if (hasUnstorableText(body as string, parsed)) {
      done(
        new SiteError(
          400,
          "validation_error",
          UNSTORABLE_TEXT_MESSAGE,
          "Remove control characters and broken (unpaired surrogate) characters from the form fields.",
        ),
      );
      return;
    }
    done(null, parsed);
  });

  await app.register(cors, {
    origin: deps.allowedOrigins.length > 0 ? deps.allowedOrigins : false,
    methods: ["POST"],
  });
  await registerDeclaredLimits(app, deps.redis);
  await registerOpenApi(app, {
    info: {
      title: "agentdesk lead capture",
      version: "1.0.0",
      description: "Stores sales leads from the marketing site's forms.",
    },
    errors: { body: siteErrorBody, refusesContentTypes: false },
  });

  registerHealthRoutes(app, deps.isHealthy);
  registerReadinessRoute(app, deps.readiness);
  registerLeadRoutes(app, {
    leads: deps.leads,
    rateLimitPerMinute: deps.rateLimitPerMinute,
    metrics: deps.metrics,
  });
  return app;
}
