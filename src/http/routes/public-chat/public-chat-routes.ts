import rateLimit from "@fastify/rate-limit";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { PublicChatService } from "../../../domain/public-chat/public-chat-service.ts";
import { AppError } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { MemoryRateLimitStore } from "../../plugins/memory-rate-limit-store.ts";
import { streamAnswer } from "../agents/query-stream.ts";
import { registerPublicChatCors } from "./public-chat-origin.ts";
import {
  publicAgentParams,
  publicAgentResponse,
  publicChatBody,
  publicChatResponse,
  publicConversationParams,
  publicConversationResponse,
  visitorQuery,
} from "./public-chat-schemas.ts";

export type PublicChatRouteDeps = {
  publicChat: PublicChatService;
  ssePingIntervalMs: number;
  maxQuestionChars: number;
  rateLimit: {
    perVisitorPerMinute: number;
    perIpPerMinute: number;
    /** Shared counters across API processes; in memory when absent. */
    redis: Redis | null;
  };
};

const NOT_FOUND = "No public agent with this id (a private agent answers the same)";

const visitorIdOf = (request: FastifyRequest) => (request.body as { visitorId: string }).visitorId;

/**
 * The public chat under /api/public, for a site's visitors without an API key (the widget): a
 * public agent's profile, its chat (the query endpoint's answer, JSON or SSE) and a visitor's
 * own conversation. In its own scope: its CORS and rate limits apply to nothing else.
 */
export function registerPublicChatRoutes(app: App, deps: PublicChatRouteDeps): void {
  app.register(
    async (scope: App) => {
      await registerPublicChatCors(scope, deps.publicChat);
      await scope.register(rateLimit, {
        global: false,
        ...(deps.rateLimit.redis
          ? { redis: deps.rateLimit.redis, nameSpace: "agentdesk:rate-limit:" }
          : { store: MemoryRateLimitStore }),
      });
      // The plugin's own hooks apply one limit per request; these two counters are checked in
      // turn instead. A preHandler: the body is validated, so the visitor id is a valid one.
      const limits = [
        {
          count: scope.createRateLimit({
            max: deps.rateLimit.perIpPerMinute,
            timeWindow: 60_000,
            keyGenerator: (request) => `public-chat:ip:${request.ip}`,
          }),
          refusal: "Too many messages from this address",
        },
        {
          count: scope.createRateLimit({
            max: deps.rateLimit.perVisitorPerMinute,
            timeWindow: 60_000,
            keyGenerator: (request) => `public-chat:visitor:${visitorIdOf(request)}`,
          }),
          refusal: "Too many messages from this visitor",
        },
      ];
      const withinLimits = async (request: FastifyRequest, reply: FastifyReply) => {
        for (const limit of limits) {
          const counted = await limit.count(request);
          if (!counted.isAllowed && counted.isExceeded) {
            reply.header("Retry-After", String(counted.ttlInSeconds));
            throw new AppError(
              "RATE_LIMITED",
              `${limit.refusal}; retry in ${counted.ttlInSeconds} seconds`,
            );
          }
        }
      };

      scope.get(
        "/agents/:agentId",
        {
          config: { auth: "public" },
          schema: {
            operationId: "getPublicAgent",
            tags: ["public-chat"],
            summary: "What a site visitor may see of a public agent (no API key)",
            params: publicAgentParams,
            response: { 200: publicAgentResponse },
            errors: {
              403: "The request's Origin is not in the agent's allowedOrigins",
              404: NOT_FOUND,
            },
          },
        },
        async (request) => deps.publicChat.profile(request.params.agentId),
      );

      scope.post(
        "/agents/:agentId/chat",
        {
          config: { auth: "public" },
          preHandler: withinLimits,
          schema: {
            operationId: "publicChat",
            tags: ["public-chat"],
            summary: "A site visitor asks a public agent (no API key; JSON, or SSE with streaming)",
            description:
              "The query endpoint's answer and stream, charged to the agent's organization, on " +
              "the website channel. Rate limited per visitorId and per client IP.",
            params: publicAgentParams,
            body: publicChatBody(deps.maxQuestionChars),
            response: { 200: publicChatResponse },
            eventStream: true,
            errors: {
              400: "Invalid body: an unknown field, a question too long or empty, a bad visitorId",
              402: "Usage limit: the agent's organization has no credits left, or its plan blocks it",
              403: "The request's Origin is not in the agent's allowedOrigins",
              404:
                `${NOT_FOUND}; or conversationId is not a conversation this visitor started ` +
                "here (type CONVERSATION_NOT_FOUND)",
              429: "Too many messages from this visitor or this address (Retry-After)",
              500: "The message could not be processed (the model provider failed)",
              502: "The embedding model of a datastore of the agent answered with an error",
              503: "The embedding model of a datastore of the agent is not available",
            },
          },
        },
        async (request, reply) => {
          const prepared = await deps.publicChat.prepare(request.params.agentId, request.body);
          if (prepared.kind === "queued") return prepared.response;
          if (!request.body.streaming) return prepared.run();
          await streamAnswer(request, reply, deps.ssePingIntervalMs, prepared.run);
          return reply;
        },
      );

      scope.get(
        "/agents/:agentId/conversations/:conversationId",
        {
          config: { auth: "public" },
          schema: {
            operationId: "getPublicConversation",
            tags: ["public-chat"],
            summary: "A visitor's own conversation with a public agent, oldest message first",
            params: publicConversationParams,
            querystring: visitorQuery,
            response: { 200: publicConversationResponse },
            errors: {
              403: "The request's Origin is not in the agent's allowedOrigins",
              404:
                `${NOT_FOUND}; or the conversation was not started here by this visitorId ` +
                "(type CONVERSATION_NOT_FOUND)",
            },
          },
        },
        async (request) =>
          deps.publicChat.conversation(
            request.params.agentId,
            request.params.conversationId,
            request.query.visitorId,
          ),
      );
    },
    { prefix: "/api/public" },
  );
}
