import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { InboundRequest } from "../../../domain/channels/channel-adapter.ts";
import type { ChannelInbound } from "../../../domain/channels/channel-inbound.ts";
import { CHANNEL_TYPES } from "../../../domain/channels/channel-request.ts";
import type { App } from "../../app-types.ts";

export type ChannelInboundRouteDeps = { channelInbound: ChannelInbound };

/** The largest body a platform may send us (DESIGN.md §11). */
const INBOUND_BODY_LIMIT_BYTES = 1024 * 1024;

const inboundParams = z.object({ type: z.enum(CHANNEL_TYPES), id: z.string().min(1).max(200) });

function headersOf(raw: Record<string, string | string[] | undefined>): InboundRequest["headers"] {
  return Object.fromEntries(
    Object.entries(raw).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
  );
}

/**
 * /channels/{type}/{id}: where the platforms call us. The body is read as raw bytes (the
 * signature is over them, so nothing parses it first) and handed to the channel's adapter.
 */
export function registerChannelInboundRoutes(app: App, deps: ChannelInboundRouteDeps): void {
  app.register(async (scope: App) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: INBOUND_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );

    const handle =
      (method: InboundRequest["method"]) =>
      async (
        request: {
          params: z.output<typeof inboundParams>;
          headers: Record<string, string | string[] | undefined>;
          query: unknown;
          body: unknown;
        },
        reply: FastifyReply,
      ) => {
        const answer = await deps.channelInbound.receive(request.params.type, request.params.id, {
          method,
          headers: headersOf(request.headers),
          query: request.query as InboundRequest["query"],
          rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
        return reply.code(answer.status).type(answer.contentType).send(answer.body);
      };

    scope.get(
      "/channels/:type/:id",
      {
        config: { auth: "public" },
        schema: {
          operationId: "verifyChannelWebhook",
          tags: ["channels"],
          "x-extension": true,
          summary: "The platform's webhook verification (WhatsApp: hub.mode, hub.challenge)",
          params: inboundParams,
          response: {
            200: z.string().describe("hub.challenge, as text, when the verify token matches"),
          },
        },
      },
      handle("GET"),
    );

    scope.post(
      "/channels/:type/:id",
      {
        bodyLimit: INBOUND_BODY_LIMIT_BYTES,
        config: { auth: "public" },
        schema: {
          operationId: "receiveChannelEvent",
          tags: ["channels"],
          "x-extension": true,
          summary: "Events from the platform, signed as the platform signs them (raw body)",
          params: inboundParams,
          response: {
            200: z
              .string()
              .describe('{"ok":true} once stored, or the handshake answer (Slack: {challenge})'),
          },
        },
      },
      handle("POST"),
    );
  });
}
