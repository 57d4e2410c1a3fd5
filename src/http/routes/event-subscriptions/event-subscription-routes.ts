import { z } from "zod";
import { SUBSCRIBABLE_EVENTS } from "../../../domain/subscriptions/subscription-events.ts";
import type { SubscriptionService } from "../../../domain/subscriptions/subscription-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

export type EventSubscriptionRouteDeps = { eventSubscriptions: SubscriptionService };

const subscriptionSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(SUBSCRIBABLE_EVENTS)),
  createdAt: z.string(),
});

const creationSchema = z.object({
  url: z
    .string()
    .trim()
    .url()
    .max(2048)
    .describe("Where the events are POSTed: a public http(s) address"),
  events: z
    .array(z.enum(SUBSCRIBABLE_EVENTS))
    .min(1)
    .max(SUBSCRIBABLE_EVENTS.length)
    .describe("The events to send; lead.created only for instance administrators"),
});

const deliverySchema = z.object({
  id: z.string().describe("Its X-Service-Delivery header, the same on every attempt"),
  event: z.string(),
  state: z.enum(["pending", "sending", "retrying", "delivered", "failed"]),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});

const params = z.object({ id: z.string().min(1).max(200) });

const DELIVERY =
  "Each event is POSTed as JSON `{event, createdAt, agentId?, conversationId?, data}` with " +
  "`X-Service-Event` (its name), `X-Service-Delivery`, and when WEBHOOK_SIGNING_SECRET is set " +
  "`X-Service-Timestamp` and `X-Service-Signature`, retried like the agents' webhooks.";

/** The organization's event subscriptions (DESIGN.md §12, docs/handoff.md). */
export function registerEventSubscriptionRoutes(app: App, deps: EventSubscriptionRouteDeps): void {
  app.post(
    "/api/event-subscriptions",
    {
      config: { auth: "key", permission: "settings:write" },
      schema: {
        operationId: "createEventSubscription",
        tags: ["events"],
        "x-extension": true,
        summary: "Send the organization's events to a URL",
        description: DELIVERY,
        body: creationSchema,
        response: { 201: subscriptionSchema },
      },
    },
    async (request, reply) => {
      const created = await deps.eventSubscriptions.create(callerOf(request), request.body);
      reply.code(201);
      return created;
    },
  );

  app.get(
    "/api/event-subscriptions",
    {
      config: { auth: "key", permission: "settings:write" },
      schema: {
        operationId: "listEventSubscriptions",
        tags: ["events"],
        "x-extension": true,
        summary: "The organization's event subscriptions, newest first",
        response: { 200: z.object({ data: z.array(subscriptionSchema) }) },
      },
    },
    async (request) => deps.eventSubscriptions.list(callerOf(request)),
  );

  app.get(
    "/api/event-subscriptions/:id",
    {
      config: { auth: "key", permission: "settings:write" },
      schema: {
        operationId: "getEventSubscription",
        tags: ["events"],
        "x-extension": true,
        summary: "One subscription with its latest 20 deliveries",
        params,
        response: {
          200: subscriptionSchema.extend({ recentDeliveries: z.array(deliverySchema) }),
        },
      },
    },
    async (request) => deps.eventSubscriptions.get(callerOf(request), request.params.id),
  );

  app.delete(
    "/api/event-subscriptions/:id",
    {
      config: { auth: "key", permission: "settings:write" },
      schema: {
        operationId: "deleteEventSubscription",
        tags: ["events"],
        "x-extension": true,
        summary: "Stop sending events to this URL (retries still pending are dropped)",
        params,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await deps.eventSubscriptions.delete(callerOf(request), request.params.id);
      reply.code(204);
      return null;
    },
  );
}
