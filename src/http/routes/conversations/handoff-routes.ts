import {
  conversationStateSchema,
  operatorReplySchema,
} from "../../../domain/handoff/handoff-request.ts";
import type { HandoffService } from "../../../domain/handoff/handoff-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import {
  conversationAgentQuery,
  conversationParams,
  conversationSchema,
  messageSchema,
} from "./conversation-routes.ts";

export type HandoffRouteDeps = { handoff: HandoffService };

/** Human handoff (DESIGN.md §12, docs/handoff.md): take over, hand back, assign, reply. */
export function registerHandoffRoutes(app: App, deps: HandoffRouteDeps): void {
  app.patch(
    "/api/conversations/:id",
    {
      config: { auth: "key", permission: "conversations:write" },
      schema: {
        operationId: "updateConversation",
        tags: ["conversations"],
        "x-extension": true,
        summary: "Take over a conversation, hand it back to the AI, resolve or assign it",
        description:
          "aiEnabled false (taking over) sets HUMAN_REQUESTED; RESOLVED turns aiEnabled back on " +
          "unless the body says otherwise; assigneeId names a member, null unassigns.",
        params: conversationParams,
        querystring: conversationAgentQuery,
        body: conversationStateSchema,
        response: { 200: conversationSchema },
      },
    },
    async (request) =>
      deps.handoff.update(
        callerOf(request),
        request.params.id,
        request.query.agentId,
        request.body,
      ),
  );

  app.post(
    "/api/conversations/:id/messages",
    {
      config: { auth: "key", permission: "conversations:write" },
      schema: {
        operationId: "replyToConversation",
        tags: ["conversations"],
        "x-extension": true,
        summary: "An operator's reply, sent through the conversation's channel",
        description:
          "Stored as an agent message with the operator as `user`; the AI stops answering in " +
          "the conversation (aiEnabled false). `delivery` follows the channel's send.",
        params: conversationParams,
        querystring: conversationAgentQuery,
        body: operatorReplySchema,
        response: { 201: messageSchema },
        errors: {
          409: "WhatsApp: the customer's last message is more than 24 hours old",
        },
      },
    },
    async (request, reply) => {
      const message = await deps.handoff.reply(
        callerOf(request),
        request.params.id,
        request.query.agentId,
        request.body,
      );
      reply.code(201);
      return message;
    },
  );
}
