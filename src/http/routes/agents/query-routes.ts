import rateLimit from "@fastify/rate-limit";
import type { FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { AgentMessageRequest } from "../../../domain/conversations/agent-message-request.ts";
import type { AgentMessageService } from "../../../domain/conversations/agent-message-service.ts";
import type { QueryService } from "../../../domain/query/query-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf, optionalCallerOf } from "../../plugins/auth.ts";
import { rateLimitStorage } from "../../plugins/memory-rate-limit-store.ts";
import { withinLimits } from "../../plugins/rate-limit-checks.ts";
import { agentIdParams } from "./agent-schemas.ts";
import { queryAgentBody, queryAgentResponse, queryBody, queryResponse } from "./query-schemas.ts";
import { replyWithAnswer, streamAnswer } from "./query-stream.ts";

export type QueryRouteDeps = {
  query: QueryService;
  agentMessages: AgentMessageService;
  ssePingIntervalMs: number;
  /** query-agent without an API key (a public agent's visitors); keyed callers are not limited. */
  anonymousLimits: {
    perVisitorPerMinute: number;
    perIpPerMinute: number;
    newConversationsPerAgentPerHour: number;
    /** Shared counters across API processes; in memory when absent. */
    redis: Redis | null;
  };
};

const HOUR_MS = 3_600_000;

const bodyOf = (request: FastifyRequest) => request.body as AgentMessageRequest;
const agentIdOf = (request: FastifyRequest) => (request.params as { id: string }).id;
const anonymous = (request: FastifyRequest) => optionalCallerOf(request) === null;

/**
 * The limits of query-agent without a key, checked in turn: per client IP, per visitorId (when
 * the body names one), and per agent on the conversations such requests start. Without a key
 * a request with no conversationId always starts one; with one it may only continue a
 * conversation started without a key (agent-message-service.ts). Counted once the body is valid
 * and before the agent is read, so a request refused afterwards (401, 404) still counts.
 */
async function anonymousLimitsOf(scope: App, limits: QueryRouteDeps["anonymousLimits"]) {
  await scope.register(rateLimit, { global: false, ...rateLimitStorage(limits.redis) });
  return withinLimits([
    {
      count: scope.createRateLimit({
        max: limits.perIpPerMinute,
        timeWindow: 60_000,
        keyGenerator: (request) => `query-agent:ip:${request.ip}`,
      }),
      refusal: "Too many messages without an API key from this address",
      counts: anonymous,
    },
    {
      count: scope.createRateLimit({
        max: limits.perVisitorPerMinute,
        timeWindow: 60_000,
        keyGenerator: (request) => `query-agent:visitor:${bodyOf(request).visitorId}`,
      }),
      refusal: "Too many messages without an API key from this visitor",
      counts: (request) => anonymous(request) && bodyOf(request).visitorId !== undefined,
    },
    {
      count: scope.createRateLimit({
        max: limits.newConversationsPerAgentPerHour,
        timeWindow: HOUR_MS,
        keyGenerator: (request) => `query-agent:agent-conversations:${agentIdOf(request)}`,
      }),
      refusal: "Too many conversations started without an API key with this agent this hour",
      counts: (request) => anonymous(request) && bodyOf(request).conversationId === undefined,
    },
  ]);
}

/** POST /api/agents/{id}/query and POST /api/agents/{id}/query-agent (spec). */
export function registerQueryRoutes(app: App, deps: QueryRouteDeps): void {
  app.post(
    "/api/agents/:id/query",
    {
      config: {
        auth: "key",
        permission: "query",
        agentParam: "id",
        permissionRefusal: "unauthorized",
      },
      schema: {
        operationId: "queryAgent",
        tags: ["agents"],
        summary: "Send a user message to an agent (JSON, or Server-Sent Events with streaming)",
        params: agentIdParams,
        body: queryBody,
        response: { 200: queryResponse },
        eventStream: true,
        errors: {
          402: "Usage limit: the organization has no credits left, or its plan or payment blocks it",
          404: "No agent with this id in the organization",
          500: "The message could not be processed (the model provider failed)",
          502: "The embedding model of a datastore of the agent answered with an error",
          503: "The embedding model of a datastore of the agent is not available",
        },
      },
    },
    async (request, reply) => {
      const prepared = await deps.query.prepare(callerOf(request), request.params.id, request.body);
      return replyWithAnswer(
        request,
        reply,
        deps.ssePingIntervalMs,
        prepared,
        request.body.streaming,
      );
    },
  );

  // In a scope of its own: its rate limits apply to nothing else.
  app.register(async (scope: App) => {
    const withinAnonymousLimits = await anonymousLimitsOf(scope, deps.anonymousLimits);
    registerQueryAgentRoute(scope, deps, withinAnonymousLimits);
  });
}

function registerQueryAgentRoute(
  app: App,
  deps: QueryRouteDeps,
  withinAnonymousLimits: ReturnType<typeof withinLimits>,
): void {
  app.post(
    "/api/agents/:id/query-agent",
    {
      config: { auth: "optional", permission: "query", agentParam: "id" },
      preHandler: withinAnonymousLimits,
      schema: {
        operationId: "postAgentMessage",
        tags: ["agents"],
        summary: "Append an agent-authored message to a conversation (no AI answer)",
        params: agentIdParams,
        body: queryAgentBody,
        response: { 200: queryAgentResponse },
        eventStream: true,
        errors: {
          401: "a draft, a contact or a private agent needs an API key of the agent's organization",
          404: "No agent with this id",
          429:
            "Without an API key: too many messages from this address or this visitorId this " +
            "minute, or too many conversations started with this agent this hour (Retry-After)",
        },
      },
    },
    async (request, reply) => {
      const caller = optionalCallerOf(request);
      const response = await deps.agentMessages.append(caller, request.params.id, request.body);
      if (!request.body.streaming) return response;
      await streamAnswer(request, reply, deps.ssePingIntervalMs, async ({ onText }) => {
        await onText(request.body.query);
        return response;
      });
      return reply;
    },
  );
}
