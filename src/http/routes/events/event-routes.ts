import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { EventSubscription } from "../../../domain/events/event-hub.ts";
import type { LiveEvents } from "../../../domain/events/event-module.ts";
import { LIVE_EVENT_NAMES } from "../../../domain/events/event-types.ts";
import type { PublicChatService } from "../../../domain/public-chat/public-chat-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import { openSseStream, type SsePingSettings } from "../../sse.ts";
import { publicConversationParams, visitorQuery } from "../public-chat/public-chat-schemas.ts";

export type EventRouteDeps = {
  /** The public chat's stream is registered in its scope with `visitor`. */
  liveEvents: Pick<LiveEvents, "organization" | "visitor" | "endAll">;
};

export type PublicEventRouteDeps = {
  liveEvents: Pick<LiveEvents, "visitor">;
  publicChat: Pick<PublicChatService, "visitorConversation">;
};

const eventId = z.string().regex(/^\d{1,15}$/, "must be the id of an event of this stream");

const resumeHeaders = z.looseObject({
  "last-event-id": eventId
    .optional()
    .describe("Resume after this event (sent by EventSource when it reconnects)"),
});

const lastEventId = eventId
  .optional()
  .describe("Resume after this event, as Last-Event-ID (which wins when both are sent)");

const FRAMING =
  "A text/event-stream that does not end: one frame per event, `event: <name>`, `id: <id>` and " +
  "`data: <JSON>` whose `conversationId` and `agentId` name the conversation. Send the last id " +
  "received as Last-Event-ID (or `lastEventId`) to resume after it: events are kept an hour. " +
  "Lines starting with `:` are keep-alive comments.";

/** Where a reconnecting client resumes: Last-Event-ID, else `lastEventId`; null is from now. */
function resumeAfter(request: FastifyRequest): number | null {
  const header = request.headers["last-event-id"];
  const query = (request.query as { lastEventId?: string }).lastEventId;
  const id = typeof header === "string" ? header : query;
  return id === undefined ? null : Number(id);
}

/** Sends a subscription's events until the client leaves or the process shuts down. */
async function streamEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  pingIntervalMs: number,
  subscription: EventSubscription,
): Promise<FastifyReply> {
  try {
    await subscription.ready;
  } catch (error) {
    subscription.close();
    throw error;
  }
  const stream = openSseStream(request, reply, { pingIntervalMs });
  stream.signal.addEventListener("abort", () => subscription.close(), { once: true });
  // A client gone before the stream opened is never told to the signal.
  if (request.raw.socket.destroyed) subscription.close();
  try {
    for await (const event of subscription.events()) {
      await stream.event(event.name, JSON.stringify(event.data), String(event.id));
    }
  } catch (error) {
    request.log.error({ err: error }, "live event stream failed");
  } finally {
    stream.end();
  }
  return reply;
}

/** GET /api/events: the organization's live events (DESIGN.md §12, docs/handoff.md). */
export function registerEventRoutes(
  app: App,
  deps: EventRouteDeps,
  settings: SsePingSettings,
): void {
  // Open streams would otherwise hold the listener's close until they time out.
  app.addHook("preClose", async () => deps.liveEvents.endAll());

  app.get(
    "/api/events",
    {
      config: { auth: "key", permission: "conversations:read" },
      schema: {
        operationId: "streamEvents",
        tags: ["conversations"],
        summary: "The organization's live events: messages and conversation changes (SSE)",
        description:
          `${FRAMING} Events: ${LIVE_EVENT_NAMES.join(", ")}. A key scoped to agents gets ` +
          "only their events.",
        headers: resumeHeaders,
        querystring: z.object({ lastEventId }),
        produces: ["text/event-stream"],
      },
    },
    async (request, reply) =>
      streamEvents(
        request,
        reply,
        settings.ssePingIntervalMs,
        deps.liveEvents.organization(callerOf(request), resumeAfter(request)),
      ),
  );
}

/**
 * The public chat's live events of a visitor's conversation: registered in the public chat's
 * scope, under its CORS and allowed origins.
 */
export function registerPublicEventRoutes(
  scope: App,
  deps: PublicEventRouteDeps,
  settings: SsePingSettings,
): void {
  scope.get(
    "/agents/:agentId/conversations/:conversationId/events",
    {
      config: { auth: "public" },
      schema: {
        operationId: "streamPublicConversationEvents",
        tags: ["public-chat"],
        summary: "A visitor's conversation as it happens: new messages and changes (SSE)",
        description:
          `${FRAMING} Events: message.created (data.message: id, from, text, createdAt, ` +
          "operator: {name} or null) and conversation.updated (status, aiEnabled).",
        params: publicConversationParams,
        headers: resumeHeaders,
        querystring: visitorQuery.extend({ lastEventId }),
        produces: ["text/event-stream"],
        errors: {
          403: "The request's Origin is not in the agent's allowedOrigins",
          404:
            "No public agent with this id (a private agent answers the same); or the " +
            "conversation was not started here by this visitorId (type CONVERSATION_NOT_FOUND)",
        },
      },
    },
    async (request, reply) => {
      const { agentId, conversationId } = request.params;
      const conversation = await deps.publicChat.visitorConversation(
        agentId,
        conversationId,
        request.query.visitorId,
      );
      return streamEvents(
        request,
        reply,
        settings.ssePingIntervalMs,
        deps.liveEvents.visitor(conversation, resumeAfter(request)),
      );
    },
  );
}
