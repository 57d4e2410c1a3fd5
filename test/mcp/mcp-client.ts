import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The official MCP client, connected (initialized) to POST /mcp with these headers. */
export async function connectMcp(baseUrl: string, headers: Record<string, string>) {
  const client = new Client({ name: "agentdesk-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), {
    requestInit: { headers },
  });
  await client.connect(transport);
  return client;
}

/** tools/call through the client, typed as the result of a tool (not a task). */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a tool result's first content block. */
export function textOf(result: CallToolResult): string {
  const [first] = result.content;
  if (first?.type !== "text") throw new Error(`No text content: ${JSON.stringify(result)}`);
  return first.text;
}
