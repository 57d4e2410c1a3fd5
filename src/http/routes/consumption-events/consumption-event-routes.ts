import type { ConsumptionService } from "../../../domain/billing/consumption-service.ts";
import type { App } from "../../app-types.ts";
import { type AuthHooks, contextOf } from "../../plugins/auth.ts";
import {
  eventListQuery,
  eventListResponse,
  summaryQuery,
  summaryResponse,
} from "./consumption-event-schemas.ts";

export type ConsumptionEventRouteDeps = { auth: AuthHooks; consumption: ConsumptionService };

const documented = { tags: ["usage"], security: [{ bearerAuth: [] }] };

/** GET /api/consumption-events and its summary: the organization's ledger. */
export function registerConsumptionEventRoutes(app: App, deps: ConsumptionEventRouteDeps): void {
  const preHandler = deps.auth.required();

  app.get(
    "/api/consumption-events",
    {
      preHandler,
      schema: {
        ...documented,
        summary: "List consumption events, newest first by default",
        querystring: eventListQuery,
        response: { 200: eventListResponse },
      },
    },
    async (request) => deps.consumption.list(contextOf(request).organizationId, request.query),
  );

  app.get(
    "/api/consumption-events/summary",
    {
      preHandler,
      schema: {
        ...documented,
        summary: "Credits, tokens and event counts grouped by an entity or a UTC period",
        querystring: summaryQuery,
        response: { 200: summaryResponse },
      },
    },
    async (request) => deps.consumption.summary(contextOf(request).organizationId, request.query),
  );
}
