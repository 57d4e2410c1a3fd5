import type { ConsumptionService } from "../../../domain/billing/consumption-service.ts";
import { summaryQuery } from "../../../domain/billing/consumption-summary-request.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import { eventListQuery, eventListResponse, summaryResponse } from "./consumption-event-schemas.ts";

export type ConsumptionEventRouteDeps = { consumption: ConsumptionService };

/** GET /api/consumption-events and its summary: the organization's ledger. */
export function registerConsumptionEventRoutes(app: App, deps: ConsumptionEventRouteDeps): void {
  app.get(
    "/api/consumption-events",
    {
      config: { auth: "key", permission: "usage:read" },
      schema: {
        operationId: "listConsumptionEvents",
        tags: ["usage"],
        summary: "List consumption events, newest first by default",
        querystring: eventListQuery,
        response: { 200: eventListResponse },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return deps.consumption.list(caller.organizationId, request.query, caller.agentIds);
    },
  );

  app.get(
    "/api/consumption-events/summary",
    {
      config: { auth: "key", permission: "usage:read" },
      schema: {
        operationId: "getConsumptionSummary",
        tags: ["usage"],
        summary: "Credits, tokens and event counts grouped by an entity or a UTC period",
        querystring: summaryQuery,
        response: { 200: summaryResponse },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return deps.consumption.summary(caller.organizationId, request.query, caller.agentIds);
    },
  );
}
