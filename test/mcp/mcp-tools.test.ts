import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import type { Untyped } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import { callTool, connectMcp, textOf } from "./mcp-client.ts";

const test = appTest({ agent: { name: "Support", description: "Answers customers" } }).extend(
  "mcp",
  { scope: "file" },
  async ({ app, org }, { onCleanup }) => {
    const client = await connectMcp(await app.listen("api"), org.auth);
    onCleanup(() => client.close());
    return client;
  },
);

const REFUNDS = "# Refunds\n\nRefunds are accepted within 30 days of delivery.\n";

describe("the MCP server over the official client", () => {
  test("initializes as agentdesk with tools", ({ mcp }) => {
    expect(mcp.getServerVersion()).toMatchObject({ name: "agentdesk" });
    expect(mcp.getServerCapabilities()?.tools).toBeDefined();
  });

  test("lists three tools whose inputs are described", async ({ mcp }) => {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "list_agents",
      "query_agent",
      "search_datastore",
    ]);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    const query = byName.query_agent!;
    expect(query.description).toContain("answer");
    expect(query.inputSchema.required).toEqual(["agentId", "query"]);
    const properties = query.inputSchema.properties as Record<string, { description?: string }>;
    expect(Object.keys(properties).sort()).toEqual(["agentId", "conversationId", "query"]);
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.outputSchema, tool.name).toBeDefined();
      const inputs = Object.entries(
        (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>,
      );
      for (const [name, schema] of inputs) expect(schema.description, name).toBeTruthy();
    }
    expect(byName.search_datastore!.inputSchema.required).toEqual(["datastoreId", "query"]);
  });

  test("list_agents gives the organization's agents: id, name, description", async ({
    mcp,
    agent,
  }) => {
    const result = await callTool(mcp, "list_agents", {});
    expect(result.isError).toBeFalsy();
    const expected = [{ id: agent.id, name: "Support", description: "Answers customers" }];
    expect(result.structuredContent).toEqual({ agents: expected });
    expect(JSON.parse(textOf(result))).toEqual(expected);
  });

  test("query_agent answers, charges and stores the conversation like the query API", async ({
    mcp,
    api,
    fake,
    agent,
  }) => {
    fake.script({ text: "We ship every weekday." }, { text: "Express costs 12 euros." });
    const first = await callTool(mcp, "query_agent", {
      agentId: agent.id,
      query: "When do you ship?",
    });
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toBe("We ship every weekday.");
    const answer = first.structuredContent as Untyped;
    expect(answer).toMatchObject({
      answer: "We ship every weekday.",
      sources: [],
      conversationId: expect.any(String),
      messageId: expect.any(String),
      visitorId: expect.any(String),
      usage: { promptTokens: expect.any(Number), completionTokens: 4 },
    });

    const second = await callTool(mcp, "query_agent", {
      agentId: agent.id,
      query: "And express?",
      conversationId: answer.conversationId,
    });
    expect(second.structuredContent).toMatchObject({
      answer: "Express costs 12 euros.",
      conversationId: answer.conversationId,
    });
    const chats = fake.requests.filter((request) => request.path === "/v1/chat/completions");
    expect(JSON.stringify(chats[1]?.body?.messages)).toContain("We ship every weekday.");

    const stored = await api.conversations.get(answer.conversationId);
    expect(stored.status).toBe(200);
    expect(stored.body.messages.map((message: Untyped) => [message.from, message.text])).toEqual([
      ["human", "When do you ship?"],
      ["agent", "We ship every weekday."],
      ["human", "And express?"],
      ["agent", "Express costs 12 euros."],
    ]);
    expect(stored.body.messages[1].id).toBe(answer.messageId);
    expect(stored.body).toMatchObject({ agentId: agent.id, channel: "api" });

    const events = await api.consumptionEvents.list({ feature: "chat" });
    const charged = events.body.data.filter(
      (event: Untyped) => event.conversationId === answer.conversationId,
    );
    expect(charged).toHaveLength(2);
    expect(charged.map((event: Untyped) => event.messageId)).toContain(answer.messageId);

    const csv = await api.agents.exportConversations(agent.id, {
      conversationId: answer.conversationId,
    });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain(`"${answer.conversationId}","human","When do you ship?"`);
    expect(csv.text).toContain(`"${answer.conversationId}","agent","Express costs 12 euros."`);
  });

  test("search_datastore gives the hits with their source", async ({ mcp, app, org }) => {
    const datastoreId = (await createDatastore(app, org, { name: "Help centre" })).id;
    const datasource = await addFile(app, org, datastoreId, {
      fileName: "refunds.md",
      contentType: "text/markdown",
      content: REFUNDS,
    });
    expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");

    const result = await callTool(mcp, "search_datastore", {
      datastoreId,
      query: "refunds within how many days",
      topK: 1,
    });
    expect(result.isError).toBeFalsy();
    const { results } = result.structuredContent as { results: Untyped[] };
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      source: "refunds.md",
      datasource_id: datasource.id,
      datasource_name: "refunds.md",
      text: expect.stringContaining("accepted within 30 days"),
      score: expect.any(Number),
    });
    expect(textOf(result)).toMatch(/^\[1\] refunds\.md \(score \d\.\d{3}\)\n.*30 days/s);
  });
});

describe("failures are tool errors with a clear message", () => {
  const failure = async (mcp: Client, name: string, args: Record<string, unknown>) => {
    const result = await callTool(mcp, name, args);
    expect(result.isError, JSON.stringify(result)).toBe(true);
    return textOf(result);
  };

  test("an unknown agent or datastore id", async ({ mcp }) => {
    expect(await failure(mcp, "query_agent", { agentId: "nope", query: "hi" })).toBe(
      "Agent not found",
    );
    expect(await failure(mcp, "search_datastore", { datastoreId: "nope", query: "hi" })).toBe(
      "Datastore not found",
    );
  });

  test("invalid arguments name the field", async ({ mcp, agent }) => {
    expect(await failure(mcp, "query_agent", { agentId: agent.id })).toMatch(
      /Input validation error.*query/s,
    );
    expect(await failure(mcp, "query_agent", { agentId: agent.id, query: "   " })).toMatch(
      /must not be empty/,
    );
    expect(
      await failure(mcp, "query_agent", { agentId: agent.id, query: "hi", conversationId: "a b" }),
    ).toMatch(/conversationId/);
    expect(
      await failure(mcp, "search_datastore", { datastoreId: "x", query: "q", topK: 0 }),
    ).toMatch(/topK/);
    expect(await failure(mcp, "no_such_tool", {})).toMatch(/Tool no_such_tool not found/);
  });

  test("an agent in conversational mode answers in the request", async ({
    mcp,
    app,
    org,
    fake,
  }) => {
    const agent = await createAgent(app, org, { name: "Batcher", useConversationalMode: true });
    fake.script({ text: "Batched elsewhere, answered here." });
    const result = await callTool(mcp, "query_agent", { agentId: agent.id, query: "hi" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("Batched elsewhere, answered here.");
  });

  test("a provider failure stores nothing and charges nothing", async ({
    mcp,
    api,
    fake,
    agent,
  }) => {
    fake.script({ status: 400, errorMessage: "bad request for key sk-live-123" });
    const message = await failure(mcp, "query_agent", {
      agentId: agent.id,
      query: "hi",
      conversationId: "mcp-provider-failure",
    });
    expect(message).toBe(
      "The model gpt_4o_mini failed: the provider rejected the request (HTTP 400)",
    );
    expect((await api.conversations.get("mcp-provider-failure")).status).toBe(404);
  });

  test("an organization that cannot run queries gets the usage limit", async ({ app, fake }) => {
    const broke = await app.createOrganization("Past due");
    await app.admin.admin.updateBilling(broke.id, { subscriptionStatus: "past_due" });
    const agent = await createAgent(app, broke);
    const client = await connectMcp(await app.listen("api"), broke.auth);
    try {
      const result = await callTool(client, "query_agent", { agentId: agent.id, query: "hi" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/payment|past due|overdue/i);
      expect(fake.requests.filter((request) => request.path === "/v1/chat/completions")).toEqual(
        [],
      );
    } finally {
      await client.close();
    }
  });
});
