import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import type { ApiClient } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";

const test = appTest({ env: { SSE_PING_INTERVAL_MS: "40" } });

let base: string;
let auth: { authorization: string };
let agentId: string;
test.beforeAll(async ({ app, org, agent }) => {
  base = await app.listen("api");
  auth = org.auth;
  agentId = agent.id;
});

const stream = (
  body: Record<string, unknown>,
  options?: Parameters<typeof postSse>[3],
  id = agentId,
) => postSse(`${base}/api/agents/${id}/query`, auth, { streaming: true, ...body }, options);

async function storedMessages(api: ApiClient, conversationId: string) {
  const response = await api.conversations.get(conversationId);
  return response.body.messages as Array<{
    from: string;
    text: string;
    metadata: Record<string, unknown>;
    usage: unknown;
  }>;
}

async function waitForMessages(api: ApiClient, conversationId: string, count: number) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await api.conversations.get(conversationId);
    if (response.status === 200 && response.body.messages.length >= count)
      return response.body.messages;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`conversation ${conversationId} never reached ${count} messages`);
}

describe("streaming a query as Server-Sent Events", () => {
  test("sends answer fragments, the full response, then [DONE], with the SSE headers", async ({
    api,
    fake,
  }) => {
    fake.script({
      chunks: ["Refunds ", "take\n30 ", "days."],
      usage: { promptTokens: 50, completionTokens: 4 },
    });
    const result = await stream({ query: "Refunds?" });
    expect(result.status).toBe(200);
    expect(result.headers.get("content-type")).toBe("text/event-stream");
    expect(result.headers.get("cache-control")).toBe("no-cache");
    expect(result.headers.get("x-accel-buffering")).toBe("no");
    expect(result.headers.get("x-request-id")).toEqual(expect.any(String));

    const answers = result.events
      .filter((event) => event.event === "answer")
      .map((event) => event.data);
    expect(answers).toEqual(["Refunds ", "take\n30 ", "days."]);
    const { answer, response, last } = summarize(result);
    expect(answer).toBe("Refunds take\n30 days.");
    expect(response).toEqual({
      answer: "Refunds take\n30 days.",
      sources: [],
      messageId: expect.any(String),
      conversationId: expect.any(String),
      visitorId: expect.any(String),
      request_human: false,
      status: "UNRESOLVED",
      usage: { promptTokens: 50, completionTokens: 4, totalTokens: 54, cost: expect.any(Number) },
      approvals: [],
    });
    expect(last).toBe("[DONE]");
    expect(result.events.map((event) => event.event ?? "message").slice(-2)).toEqual([
      "endpoint_response",
      "message",
    ]);
    // A fragment with a line break travels as two data lines of one event.
    expect(result.raw).toContain("event: answer\ndata: take\ndata: 30 \n\n");

    const messages = await storedMessages(api, response!.conversationId as string);
    expect(messages.map((message) => message.text)).toEqual(["Refunds?", "Refunds take\n30 days."]);
  });

  test("sends comment pings while the model is slow to start", async ({ fake }) => {
    fake.script({ text: "late answer", delayMs: 400 });
    const result = await stream({ query: "slow?" });
    expect(result.comments.filter((comment) => comment.trim() === "ping").length).toBeGreaterThan(
      0,
    );
    expect(summarize(result).answer).toBe("late answer");
    expect(summarize(result).last).toBe("[DONE]");
  });

  test("stops the model when the client disconnects and stores the partial answer", async ({
    api,
    fake,
  }) => {
    fake.script({ text: "one two three four five six seven eight", chunkDelayMs: 150 });
    const controller = new AbortController();
    let fragments = 0;
    const result = await stream(
      { query: "count slowly", conversationId: "disconnect-1" },
      {
        controller,
        onEvent(event) {
          if (event.event === "answer" && ++fragments === 2) controller.abort();
        },
      },
    );
    expect(summarize(result).answer).toBe("one two ");
    const closed = await fake.waitFor((request) => request.closedByClient);
    expect(closed.path).toBe("/v1/chat/completions");

    const messages = await waitForMessages(api, "disconnect-1", 2);
    expect(messages[0]).toMatchObject({ from: "human", text: "count slowly" });
    expect(messages[1].from).toBe("agent");
    expect("one two three four five six seven eight".startsWith(messages[1].text)).toBe(true);
    expect(messages[1].text.length).toBeGreaterThanOrEqual("one two ".length);
    expect(messages[1].text).not.toBe("one two three four five six seven eight");
    expect(messages[1].metadata).toMatchObject({
      interrupted: "disconnected",
      usageEstimated: true,
    });
    expect(messages[1].usage).toMatchObject({ completionTokens: expect.any(Number) });
  });

  test("ends with [ERROR] when the provider fails mid-stream, keeping what was sent", async ({
    api,
    fake,
  }) => {
    fake.script({
      text: "partial answer here",
      failAfterChunks: 2,
      errorMessage: "upstream broke",
    });
    const result = await stream({ query: "break", conversationId: "mid-stream-failure" });
    expect(result.status).toBe(200);
    const { answer, response, last } = summarize(result);
    expect(answer).toBe("partial answer ");
    expect(response).toBeUndefined();
    expect(last).toMatch(/^\[ERROR\] The model gpt_4o_mini failed/);
    expect(result.raw).not.toContain("upstream broke");
    const messages = await storedMessages(api, "mid-stream-failure");
    expect(messages[1]).toMatchObject({
      text: "partial answer ",
      metadata: { interrupted: "failed" },
    });
  });

  test("reports a provider refusal before any token as [ERROR] and stores nothing", async ({
    api,
    fake,
  }) => {
    fake.script({ status: 401, errorMessage: "Incorrect API key sk-secret" });
    const result = await stream({ query: "hello", conversationId: "refused-1" });
    expect(result.status).toBe(200);
    expect(result.events.map((event) => event.data)).toEqual([
      "[ERROR] The model gpt_4o_mini failed: the provider refused the API key (HTTP 401)",
    ]);
    const lookup = await api.conversations.get("refused-1");
    expect(lookup.status).toBe(404);
  });

  test("answers 401, 402, 404 and 400 as JSON before any stream starts", async ({
    app,
    agent: { id: agentId },
  }) => {
    const noKey = await postSse(
      `${base}/api/agents/${agentId}/query`,
      {},
      { query: "hi", streaming: true },
    );
    expect(noKey.status).toBe(401);
    expect(noKey.json).toMatchObject({ type: "UNAUTHORIZED" });

    const free = await app.createOrganization("Free");
    const freeAgent = await createAgent(app, free);
    for (let index = 0; index < 5; index += 1) {
      const used = await postSse(`${base}/api/agents/${freeAgent.id}/query`, free.auth, {
        query: "q",
        streaming: true,
      });
      expect(summarize(used).last).toBe("[DONE]");
    }
    const limited = await postSse(`${base}/api/agents/${freeAgent.id}/query`, free.auth, {
      query: "q",
      streaming: true,
    });
    expect(limited.status).toBe(402);
    expect(limited.json).toMatchObject({ type: "USAGE_LIMIT" });

    const missing = await stream({ query: "hi" }, {}, "no-such-agent");
    expect(missing.status).toBe(404);
    const badChannel = await stream({ query: "hi", channel: "fax" });
    expect(badChannel.status).toBe(400);
    expect(badChannel.json).toMatchObject({ type: "INVALID_REQUEST" });
  });
});
