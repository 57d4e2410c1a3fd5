import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { AppError } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import { createMcpServer, type McpToolDeps } from "./mcp-tools.ts";

export type McpRouteDeps = McpToolDeps;

const jsonRpcId = z.union([z.string().max(200), z.number().int()]);

const jsonRpcMessage = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: jsonRpcId.optional().describe("Absent on notifications"),
    method: z
      .string()
      .max(200)
      .optional()
      .describe("initialize, tools/list, tools/call, ping, notifications/initialized …"),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .loose()
  .describe("A JSON-RPC 2.0 message of the Model Context Protocol");

const mcpBody = z.union([jsonRpcMessage, z.array(jsonRpcMessage).min(1).max(100)]);

const mcpResponse = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: jsonRpcId.nullable(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number().int(), message: z.string() }).loose().optional(),
  })
  .loose()
  .describe("The JSON-RPC response; a tool's failure is a result with isError: true");

const MCP_DESCRIPTION = [
  "A Model Context Protocol server (Streamable HTTP transport, stateless: no session id, every",
  "POST stands alone, responses as application/json). Send JSON-RPC messages with",
  "`Accept: application/json, text/event-stream`; any MCP client does. Tools: `list_agents`",
  "(id, name, description), `query_agent` (agentId, query, optional conversationId: the",
  "answer, charged and stored like POST /api/agents/{id}/query), `search_datastore`",
  "(datastoreId, query, optional topK: the passages and their sources, like POST",
  "/api/datastores/{id}/query). Unknown ids, a usage limit or a provider failure are tool",
  "results with `isError: true`. A notification alone is answered 202 with no body; a",
  "request without both accepted media types 406 with a JSON-RPC error.",
].join(" ");

/**
 * POST /mcp: the MCP server over the dashboard API's key. Access is checked before the body is
 * read, like every route; then the SDK's transport takes the raw request and response over.
 */
export function registerMcpRoutes(app: App, deps: McpRouteDeps): void {
  app.post(
    "/mcp",
    {
      config: { auth: "key", permission: "query" },
      schema: {
        operationId: "mcp",
        tags: ["mcp"],
        "x-extension": true,
        summary: "Model Context Protocol server (Streamable HTTP): list_agents, query_agent, …",
        description: MCP_DESCRIPTION,
        body: mcpBody,
        response: { 200: mcpResponse },
      },
    },
    async (request, reply) => {
      const server = createMcpServer(deps, { caller: callerOf(request), log: request.log });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      reply.hijack();
      reply.raw.setHeader("x-request-id", request.id);
      reply.raw.on("close", () => {
        void server.close();
      });
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );

  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  app.route({
    method: ["GET", "DELETE"],
    url: "/mcp",
    config: { auth: "public" },
    schema: { hide: true },
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      reply.header("allow", "POST");
      throw new AppError(
        "METHOD_NOT_ALLOWED",
        `Method ${request.method} is not allowed on /mcp: this MCP server is stateless, send POST`,
      );
    },
  });
}
