import { z } from "zod";
import type { AgentService } from "../../../domain/agents/agent-service.ts";
import type { App } from "../../app-types.ts";
import { type AuthHooks, contextOf } from "../../plugins/auth.ts";
import { agentFieldsSchema, agentIdParams, agentSchema, createAgentBody } from "./agent-schemas.ts";

export type AgentRouteDeps = { auth: AuthHooks; agents: AgentService };

const secured = { security: [{ bearerAuth: [] }] };
const extension = { ...secured, tags: ["extensions"] };

/** GET /api/agents (spec) and the agent management extensions of DESIGN.md section 4. */
export function registerAgentRoutes(app: App, deps: AgentRouteDeps): void {
  const preHandler = deps.auth.required();

  app.get(
    "/api/agents",
    {
      preHandler,
      schema: {
        ...secured,
        tags: ["agents"],
        summary: "List the agents of the organization",
        response: { 200: z.array(agentSchema) },
      },
    },
    async (request) => deps.agents.list(contextOf(request)),
  );

  app.post(
    "/api/agents",
    {
      preHandler,
      schema: {
        ...extension,
        summary: "Create an agent",
        body: createAgentBody,
        response: { 201: agentSchema },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return deps.agents.create(contextOf(request), request.body);
    },
  );

  app.get(
    "/api/agents/:id",
    {
      preHandler,
      schema: {
        ...extension,
        summary: "One agent",
        params: agentIdParams,
        response: { 200: agentSchema },
      },
    },
    async (request) => deps.agents.get(contextOf(request), request.params.id),
  );

  app.patch(
    "/api/agents/:id",
    {
      preHandler,
      schema: {
        ...extension,
        summary: "Change some fields of an agent",
        params: agentIdParams,
        body: agentFieldsSchema,
        response: { 200: agentSchema },
      },
    },
    async (request) => deps.agents.update(contextOf(request), request.params.id, request.body),
  );

  app.delete(
    "/api/agents/:id",
    {
      preHandler,
      schema: {
        ...extension,
        summary: "Delete an agent with its conversations; returns what was deleted",
        params: agentIdParams,
        response: { 200: agentSchema },
      },
    },
    async (request) => deps.agents.remove(contextOf(request), request.params.id),
  );
}
