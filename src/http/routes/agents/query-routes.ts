import type { AgentMessageService } from "../../../domain/conversations/agent-message-service.ts";
import type { QueryService } from "../../../domain/query/query-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf, optionalCallerOf } from "../../plugins/auth.ts";
import { agentIdParams } from "./agent-schemas.ts";
import { queryAgentBody, queryAgentResponse, queryBody, queryResponse } from "./query-schemas.ts";
import { replyWithAnswer, streamAnswer } from "./query-stream.ts";

export type QueryRouteDeps = {
  query: QueryService;
  agentMessages: AgentMessageService;
  ssePingIntervalMs: number;
};

/** POST /api/agents/{id}/query and POST /api/agents/{id}/query-agent (spec). */
export function registerQueryRoutes(app: App, deps: QueryRouteDeps): void {
  app.post(
    "/api/agents/:id/query",
    {
      config: { auth: "key" },
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

  app.post(
    "/api/agents/:id/query-agent",
    {
      config: { auth: "optional" },
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
