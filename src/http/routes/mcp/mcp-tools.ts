import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AgentService } from "../../../domain/agents/agent-service.ts";
import type { Caller } from "../../../domain/caller.ts";
import {
  datastoreQueryBody,
  datastoreQueryResult,
} from "../../../domain/knowledge/datastore-request.ts";
import type { DatastoreService } from "../../../domain/knowledge/datastore-service.ts";
import type { QueryService } from "../../../domain/query/query-service.ts";
import { AppError } from "../../../lib/errors.ts";
import { agentIdParams } from "../agents/agent-schemas.ts";
import { clientIdSchema, queryBody, queryResponse } from "../agents/query-schemas.ts";

export type McpToolDeps = {
  agents: Pick<AgentService, "list">;
  query: Pick<QueryService, "prepare">;
  knowledge: { datastores: Pick<DatastoreService, "query"> };
};

/** What one MCP request acts as: the caller of its key, and the request's logger. */
type McpRequestContext = { caller: Caller; log: FastifyBaseLogger };

const agentSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
});

const answerResult = queryResponse.options[0];
const datastoreHits = z.array(datastoreQueryResult);

const queryAgentInput = {
  agentId: agentIdParams.shape.id.describe("The id of an agent of the organization (list_agents)"),
  query: queryBody.shape.query.describe("The user message to answer"),
  conversationId: clientIdSchema
    .optional()
    .describe(
      "Continues this conversation (the conversationId of an earlier answer); a new one when omitted",
    ),
};

const searchDatastoreInput = {
  datastoreId: z.string().min(1).max(64).describe("The id of a datastore of the organization"),
  query: datastoreQueryBody.shape.query.describe("What to look for"),
  topK: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe("How many passages to return, 1 to 100 (default 5)"),
};

const text = (value: string): CallToolResult["content"] => [{ type: "text", text: value }];

/**
 * Runs a tool's service call; the failures a client should see (404, 402, 400, a provider's
 * failure) become tool errors with the service's message, anything else a tool error that names
 * only the request id, logged with the error.
 */
async function asTool(
  context: McpRequestContext,
  tool: string,
  run: () => Promise<CallToolResult>,
) {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) {
      if (error.status >= 500) context.log.warn({ err: error, tool }, "MCP tool failed");
      return { isError: true, content: text(error.message) } satisfies CallToolResult;
    }
    context.log.error({ err: error, tool }, "MCP tool failed");
    const message = `Internal error; request id ${context.caller.requestId}`;
    return { isError: true, content: text(message) } satisfies CallToolResult;
  }
}

function hitsAsText(hits: z.infer<typeof datastoreHits>): string {
  if (hits.length === 0) return "No passage matched.";
  return hits
    .map(
      (hit, index) => `[${index + 1}] ${hit.source} (score ${hit.score.toFixed(3)})\n${hit.text}`,
    )
    .join("\n\n");
}

/**
 * The MCP server of one request (stateless: one per POST /mcp), its tools acting as the caller
 * through the same services as the dashboard API's routes.
 */
export function createMcpServer(deps: McpToolDeps, context: McpRequestContext): McpServer {
  const server = new McpServer({ name: "agentdesk", version: "1.0.0" });
  const { caller } = context;

  server.registerTool(
    "list_agents",
    {
      title: "List agents",
      description: "Lists the agents of the organization: their ids, names and descriptions.",
      outputSchema: { agents: z.array(agentSummary) },
      annotations: { readOnlyHint: true },
    },
    () =>
      asTool(context, "list_agents", async () => {
        const agents = (await deps.agents.list(caller)).map(({ id, name, description }) => ({
          id,
          name,
          description,
        }));
        return { content: text(JSON.stringify(agents)), structuredContent: { agents } };
      }),
  );

  server.registerTool(
    "query_agent",
    {
      title: "Ask an agent",
      description:
        "Sends a user message to an agent and returns its answer, grounded in the agent's " +
        "knowledge. Charged like POST /api/agents/{id}/query; the conversation is stored.",
      inputSchema: queryAgentInput,
      outputSchema: answerResult,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    ({ agentId, query, conversationId }) =>
      asTool(context, "query_agent", async () => {
        // Answered in the request even for an agent in conversational mode, whose answers
        // otherwise go by webhook, which an MCP client cannot receive.
        const prepared = await deps.query.prepare(
          caller,
          agentId,
          {
            query,
            streaming: false,
            ...(conversationId === undefined ? {} : { conversationId }),
          },
          { inline: true },
        );
        if (prepared.kind === "queued") throw new Error("An inline query was queued");
        const answer = await prepared.run();
        return { content: text(answer.answer), structuredContent: answer };
      }),
  );

  server.registerTool(
    "search_datastore",
    {
      title: "Search a datastore",
      description:
        "Retrieves the passages of a datastore most similar to a query, each with its source.",
      inputSchema: searchDatastoreInput,
      outputSchema: { results: datastoreHits },
      annotations: { readOnlyHint: true },
    },
    ({ datastoreId, query, topK }) =>
      asTool(context, "search_datastore", async () => {
        const results = await deps.knowledge.datastores.query(caller, datastoreId, {
          query,
          topK: topK ?? 5,
        });
        return { content: text(hitsAsText(results)), structuredContent: { results } };
      }),
  );

  return server;
}
