import { z } from "zod";
import type { WebhookDeliveryReader } from "../../../domain/webhooks/webhook-delivery-view.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import {
  conversationAgentQuery,
  conversationParams,
} from "../conversations/conversation-routes.ts";

export type WebhookRouteDeps = { webhookDeliveryReader: WebhookDeliveryReader };

const attemptSchema = z.object({
  attempt: z.number().int(),
  outcome: z.enum(["delivered", "failed"]),
  responseStatus: z.number().int().nullable(),
  responseSnippet: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  startedAt: z.string(),
});

const deliverySchema = z.object({
  id: z.string().describe("The X-Service-Delivery header, the same on every attempt"),
  event: z.string(),
  url: z.string(),
  status: z.enum(["success", "error"]).describe("The payload's status"),
  state: z.enum(["pending", "sending", "retrying", "delivered", "failed"]),
  attemptCount: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  payload: z.unknown().describe("The JSON body as sent"),
  attempts: z.array(attemptSchema),
});

/** GET /api/conversations/{id}/webhook-deliveries: what conversational mode sent, every attempt. */
export function registerWebhookRoutes(app: App, deps: WebhookRouteDeps): void {
  app.get(
    "/api/conversations/:id/webhook-deliveries",
    {
      config: { auth: "key", permission: "conversations:read" },
      schema: {
        operationId: "listWebhookDeliveries",
        tags: ["conversations"],
        "x-extension": true,
        summary: "Webhook deliveries of a conversation (conversational mode), oldest first",
        params: conversationParams,
        querystring: conversationAgentQuery,
        response: { 200: z.object({ data: z.array(deliverySchema) }) },
      },
    },
    async (request) =>
      deps.webhookDeliveryReader.listForConversation(
        callerOf(request),
        request.params.id,
        request.query.agentId,
      ),
  );
}
