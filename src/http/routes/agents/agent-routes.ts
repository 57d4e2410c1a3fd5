import { z } from "zod";
import type { AgentService } from "../../../domain/agents/agent-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import { agentFieldsSchema, agentIdParams, agentSchema, createAgentBody } from "./agent-schemas.ts";

export type AgentRouteDeps = { agents: AgentService };

/** GET /api/agents (spec) and the agent management extensions (docs/contracts.md). */
export function registerAgentRoutes(app: App, deps: AgentRouteDeps): void {
  app.get(
    "/api/agents",
    {
      config: { auth: "key", permission: "agents:read" },
      schema: {
        operationId: "listAgents",
        tags: ["agents"],
        summary: "List the agents of the organization",
        response: { 200: z.array(agentSchema) },
      },
    },
    async (request) => deps.agents.list(callerOf(request)),
  );

  app.post(
    "/api/agents",
    {
      config: { auth: "key", permission: "agents:write" },
      schema: {
        operationId: "createAgent",
        tags: ["agents"],
        "x-extension": true,
        summary: "Create an agent",
        body: createAgentBody,
        response: { 201: agentSchema },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return deps.agents.create(callerOf(request), request.body);
    },
  );

  app.get(
    "/api/agents/:id",
    {
      config: { auth: "key", permission: "agents:read", agentParam: "id" },
      schema: {
        operationId: "getAgent",
        tags: ["agents"],
        "x-extension": true,
        summary: "One agent",
        params: agentIdParams,
        response: { 200: agentSchema },
      },
    },
    async (request) => deps.agents.get(callerOf(request), request.params.id),
  );

  app.patch(
    "/api/agents/:id",
    {
      config: { auth: "key", permission: "agents:write", agentParam: "id" },
      schema: {
        operationId: "updateAgent",
        tags: ["agents"],
        "x-extension": true,
        summary: "Change some fields of an agent",
        params: agentIdParams,
        body: agentFieldsSchema,
        response: { 200: agentSchema },
      },
    },
    async (request) => deps.agents.update(callerOf(request), request.params.id, request.body),
  );

  app.delete(
    "/api/agents/:id",
    {
      config: { auth: "key", permission: "agents:write", agentParam: "id" },
      schema: {
        operationId: "deleteAgent",
        tags: ["agents"],
        "x-extension": true,
        summary: "Delete an agent with its conversations; returns what was deleted",
        params: agentIdParams,
        response: { 200: agentSchema },
      },
    },
    async (request) => deps.agents.remove(callerOf(request), request.params.id),
  );
}
