import { z } from "zod";
import type { AgentVersionService } from "../../../domain/agents/agent-versions.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import { agentIdParams, agentSchema, agentVersionSchema } from "./agent-schemas.ts";

export type AgentVersionRouteDeps = { agentVersions: AgentVersionService };

/** PostgreSQL's integer: version numbers are stored as one. */
const VERSION_MAX = 2_147_483_647;

const versionParams = agentIdParams.extend({
  version: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, "must be a version number: a whole number from 1")
    .transform(Number)
    .pipe(z.number().int().max(VERSION_MAX)),
});

/** The versions of an agent's answer-affecting fields (extensions, docs/agents.md). */
export function registerAgentVersionRoutes(app: App, deps: AgentVersionRouteDeps): void {
  app.get(
    "/api/agents/:id/versions",
    {
      config: { auth: "key", permission: "agents:read", agentParam: "id" },
      schema: {
        operationId: "listAgentVersions",
        tags: ["agents"],
        "x-extension": true,
        summary: "The versions of an agent, newest first",
        params: agentIdParams,
        response: { 200: z.object({ versions: z.array(agentVersionSchema) }) },
      },
    },
    async (request) => ({
      versions: await deps.agentVersions.list(callerOf(request), request.params.id),
    }),
  );

  app.get(
    "/api/agents/:id/versions/:version",
    {
      config: { auth: "key", permission: "agents:read", agentParam: "id" },
      schema: {
        operationId: "getAgentVersion",
        tags: ["agents"],
        "x-extension": true,
        summary: "One version of an agent",
        params: versionParams,
        response: { 200: agentVersionSchema },
      },
    },
    async (request) =>
      deps.agentVersions.get(callerOf(request), request.params.id, request.params.version),
  );

  app.post(
    "/api/agents/:id/versions/:version/restore",
    {
      config: { auth: "key", permission: "agents:write", agentParam: "id" },
      schema: {
        operationId: "restoreAgentVersion",
        tags: ["agents"],
        "x-extension": true,
        summary: "Give the agent a version's fields again; this makes a new version",
        params: versionParams,
        response: { 200: agentSchema },
      },
    },
    async (request) =>
      deps.agentVersions.restore(callerOf(request), request.params.id, request.params.version),
  );
}
