import type { FastifyRequest } from "fastify";
import type { AgentMessageRequest } from "../../../domain/conversations/agent-message-request.ts";
import type { AgentMessageService } from "../../../domain/conversations/agent-message-service.ts";
import type { QueryService } from "../../../domain/query/query-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf, optionalCallerOf } from "../../plugins/auth.ts";
import type { RouteLimit } from "../../plugins/declared-limits.ts";
import type { SsePingSettings } from "../../sse.ts";
import { agentIdParams } from "./agent-schemas.ts";
import { queryAgentBody, queryAgentResponse, queryBody, queryResponse } from "./query-schemas.ts";
import { replyWithAnswer, streamAnswer } from "./query-stream.ts";

export type QueryRouteDeps = {
  query: QueryService;
  agentMessages: AgentMessageService;
};

export type QuerySettings = SsePingSettings & {
  /** query-agent without an API key (a public agent's visitors); keyed callers are not limited. */
  anonymousLimits: {
    perVisitorPerMinute: number;
    perIpPerMinute: number;
    newConversationsPerAgentPerHour: number;
  };
};

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
function anonymousLimitsOf(limits: QuerySettings["anonymousLimits"]): RouteLimit[] {
  return [
    {
      name: "query-agent:ip",
      key: (request) => request.ip,
      max: limits.perIpPerMinute,
      per: "minute",
      counts: anonymous,
      refusal: "Too many messages without an API key from this address",
    },
    {
      name: "query-agent:visitor",
      key: (request) => bodyOf(request).visitorId!,
      max: limits.perVisitorPerMinute,
      per: "minute",
      counts: (request) => anonymous(request) && bodyOf(request).visitorId !== undefined,
      refusal: "Too many messages without an API key from this visitor",
    },
    {
      name: "query-agent:agent-conversations",
      key: agentIdOf,
      max: limits.newConversationsPerAgentPerHour,
      per: "hour",
      counts: (request) => anonymous(request) && bodyOf(request).conversationId === undefined,
      refusal: "Too many conversations started without an API key with this agent this hour",
    },
  ];
}

/** POST /api/agents/{id}/query and POST /api/agents/{id}/query-agent (spec). */
export function registerQueryRoutes(app: App, deps: QueryRouteDeps, settings: QuerySettings): void {
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
        settings.ssePingIntervalMs,
        prepared,
        request.body.streaming,
      );
    },
  );

  app.post(
    "/api/agents/:id/query-agent",
    {
      config: {
        auth: "optional",
        permission: "query",
        agentParam: "id",
        limits: anonymousLimitsOf(settings.anonymousLimits),
      },
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
      await streamAnswer(request, reply, settings.ssePingIntervalMs, async ({ onText }) => {
        await onText(request.body.query);
        return response;
      });
      return reply;
    },
  );
}
