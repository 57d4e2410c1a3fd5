import { describe, expect } from "vitest";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { Untyped } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import { callTool, connectMcp, textOf } from "./mcp-client.ts";

const test = appTest()
  .extend("url", { scope: "file" }, async ({ app }) => app.listen("api"))
  .extend("mcp", { scope: "file" }, async ({ url, org }, { onCleanup }) => {
    const client = await connectMcp(url, org.auth);
    onCleanup(() => client.close());
    return client;
  })
  .extend("other", { scope: "file" }, async ({ app }) => {
    const org = await createFundedOrganization(app, "Other");
    const agent = await createAgent(app, org, { name: "Their agent" });
    const datastoreId = (await createDatastore(app, org, { name: "Their notes" })).id;
    const datasource = await addFile(app, org, datastoreId, {
      fileName: "secret.txt",
      contentType: "text/plain",
      content: "The vault code is 4711.\n",
    });
    await waitForSync(app, org, datasource.id);
    const conversationId = (
      await app.client(org.auth).agents.query(agent.id, { query: "their private question" })
    ).body.conversationId as string;
    return { org, agentId: agent.id, datastoreId, conversationId };
  });

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "curl", version: "1" },
  },
};
const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(`${url}/mcp`, { method: "POST", headers, body });

describe("authentication happens at the HTTP level, before MCP", () => {
  test("no key or a bad key is a 401 in the API's envelope", async ({ url }) => {
    for (const authorization of [undefined, "Bearer adk_not-a-key", "Basic abc"]) {
      const response = await post(url, JSON.stringify(INITIALIZE), {
        ...MCP_HEADERS,
        ...(authorization ? { authorization } : {}),
      });
      expect(response.status, authorization).toBe(401);
      expect(await response.json()).toMatchObject({ type: "UNAUTHORIZED" });
    }
  });

  test("the official client fails to connect with a bad key", async ({ url }) => {
    await expect(connectMcp(url, { authorization: "Bearer adk_wrong" })).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('"type":"UNAUTHORIZED"'),
    });
  });

  test("GET and DELETE /mcp answer 405 with Allow: POST", async ({ url, org }) => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${url}/mcp`, {
        method,
        headers: { ...org.auth, accept: "text/event-stream" },
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(await response.json()).toMatchObject({ type: "METHOD_NOT_ALLOWED" });
    }
  });
});

describe("bad HTTP input never reaches the tools", () => {
  test("bodies that are not JSON-RPC messages are 400 in the API's envelope", async ({
    url,
    org,
  }) => {
    for (const body of ["{}", "[]", '{"jsonrpc":"1.0","method":"ping","id":1}', '"ping"', "{"]) {
      const response = await post(url, body, { ...MCP_HEADERS, ...org.auth });
      expect(response.status, body).toBe(400);
      expect(await response.json(), body).toMatchObject({ type: "INVALID_REQUEST" });
    }
  });

  test("a body that is not JSON is 415; one over 1 MiB is 413", async ({ url, org }) => {
    const xml = await post(url, "<initialize/>", {
      ...MCP_HEADERS,
      ...org.auth,
      "content-type": "application/xml",
    });
    expect(xml.status).toBe(415);
    const large = JSON.stringify({ ...INITIALIZE, params: { pad: "x".repeat(1024 * 1024) } });
    const tooLarge = await post(url, large, { ...MCP_HEADERS, ...org.auth });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ type: "PAYLOAD_TOO_LARGE" });
  });

  test("a client that does not accept both media types gets the transport's 406", async ({
    url,
    org,
  }) => {
    const response = await post(url, JSON.stringify(INITIALIZE), {
      ...MCP_HEADERS,
      ...org.auth,
      accept: "application/json",
    });
    expect(response.status).toBe(406);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
  });

  test("plain HTTP: initialize as JSON with the request id, a notification 202, a batch", async ({
    url,
    org,
  }) => {
    const response = await post(url, JSON.stringify(INITIALIZE), {
      ...MCP_HEADERS,
      ...org.auth,
      "x-request-id": "mcp-trace-1",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("x-request-id")).toBe("mcp-trace-1");
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await response.json()).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: { serverInfo: { name: "agentdesk" }, capabilities: { tools: {} } },
    });
    const notification = await post(
      url,
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      { ...MCP_HEADERS, ...org.auth },
    );
    expect(notification.status).toBe(202);
    const batch = await post(
      url,
      JSON.stringify([
        { jsonrpc: "2.0", id: "a", method: "ping" },
        { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "list_agents" } },
      ]),
      { ...MCP_HEADERS, ...org.auth },
    );
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as Untyped[];
    expect(answers.map((answer) => answer.id).sort()).toEqual(["a", "b"]);
  });
});

describe("organization scoping over the tools", () => {
  test("another organization's agent is not found and never queried", async ({
    mcp,
    other,
    fake,
  }) => {
    fake.requests.length = 0;
    const result = await callTool(mcp, "query_agent", { agentId: other.agentId, query: "hi" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Agent not found");
    expect(fake.requests.filter((request) => request.path === "/v1/chat/completions")).toEqual([]);
  });

  test("list_agents lists only the caller's agents", async ({ mcp, agent, other }) => {
    const result = await callTool(mcp, "list_agents", {});
    const { agents } = result.structuredContent as { agents: Untyped[] };
    expect(agents.map((listed) => listed.id)).toEqual([agent.id]);
    expect(JSON.stringify(result)).not.toContain(other.agentId);
  });

  test("another organization's private datastore is not found", async ({ mcp, other }) => {
    const result = await callTool(mcp, "search_datastore", {
      datastoreId: other.datastoreId,
      query: "vault code",
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Datastore not found");
    expect(JSON.stringify(result)).not.toContain("4711");
  });

  test("another organization's conversation id starts a conversation of the caller's own", async ({
    app,
    mcp,
    agent,
    other,
    fake,
  }) => {
    fake.requests.length = 0;
    const result = await callTool(mcp, "query_agent", {
      agentId: agent.id,
      query: "what did they ask?",
      conversationId: other.conversationId,
    });
    expect(result.isError).toBeFalsy();
    const [chat] = fake.requests.filter((request) => request.path === "/v1/chat/completions");
    expect(JSON.stringify(chat?.body)).not.toContain("their private question");
    const theirs = await app.client(other.org.auth).conversations.get(other.conversationId);
    expect(theirs.body.messages.map((message: Untyped) => message.text)).toEqual([
      "their private question",
      "Answer: their private question",
    ]);
  });
});
