import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  startQueryTestApp,
} from "../agents/agent-helpers.ts";
import type { TestOrganization } from "../harness/app.ts";
import { postSse, summarize } from "./sse-client.ts";

let t: QueryTestApp;
let org: TestOrganization;
let agentId: string;
let base: string;
beforeAll(async () => {
  t = await startQueryTestApp({ SSE_PING_INTERVAL_MS: "40" });
  org = await createFundedOrganization(t.app);
  agentId = (await createAgent(t.app, org)).id;
  base = await t.app.listen("api");
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.requests.length = 0;
});

const stream = (
  body: Record<string, unknown>,
  options?: Parameters<typeof postSse>[3],
  id = agentId,
) => postSse(`${base}/api/agents/${id}/query`, org.auth, { streaming: true, ...body }, options);

async function storedMessages(conversationId: string) {
  const response = await t.app.api.inject({
    url: `/api/conversations/${conversationId}`,
    headers: org.auth,
  });
  return response.json().messages as Array<{
    from: string;
    text: string;
    metadata: Record<string, unknown>;
    usage: unknown;
  }>;
}

async function waitForMessages(conversationId: string, count: number) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await t.app.api.inject({
      url: `/api/conversations/${conversationId}`,
      headers: org.auth,
    });
    if (response.statusCode === 200 && response.json().messages.length >= count)
      return response.json().messages;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`conversation ${conversationId} never reached ${count} messages`);
}

describe("streaming a query as Server-Sent Events", () => {
  it("sends answer fragments, the full response, then [DONE], with the SSE headers", async () => {
    t.fake.script({
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

    const messages = await storedMessages(response!.conversationId as string);
    expect(messages.map((message) => message.text)).toEqual(["Refunds?", "Refunds take\n30 days."]);
  });

  it("sends comment pings while the model is slow to start", async () => {
    t.fake.script({ text: "late answer", delayMs: 400 });
    const result = await stream({ query: "slow?" });
    expect(result.comments.filter((comment) => comment.trim() === "ping").length).toBeGreaterThan(
      0,
    );
    expect(summarize(result).answer).toBe("late answer");
    expect(summarize(result).last).toBe("[DONE]");
  });

  it("stops the model when the client disconnects and stores the partial answer", async () => {
    t.fake.script({ text: "one two three four five six seven eight", chunkDelayMs: 150 });
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
    const closed = await t.fake.waitFor((request) => request.closedByClient);
    expect(closed.path).toBe("/v1/chat/completions");

    const messages = await waitForMessages("disconnect-1", 2);
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

  it("ends with [ERROR] when the provider fails mid-stream, keeping what was sent", async () => {
    t.fake.script({
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
    const messages = await storedMessages("mid-stream-failure");
    expect(messages[1]).toMatchObject({
      text: "partial answer ",
      metadata: { interrupted: "failed" },
    });
  });

  it("reports a provider refusal before any token as [ERROR] and stores nothing", async () => {
    t.fake.script({ status: 401, errorMessage: "Incorrect API key sk-secret" });
    const result = await stream({ query: "hello", conversationId: "refused-1" });
    expect(result.status).toBe(200);
    expect(result.events.map((event) => event.data)).toEqual([
      "[ERROR] The model gpt_4o_mini failed: the provider refused the API key (HTTP 401)",
    ]);
    const lookup = await t.app.api.inject({
      url: "/api/conversations/refused-1",
      headers: org.auth,
    });
    expect(lookup.statusCode).toBe(404);
  });

  it("answers 401, 402, 404 and 400 as JSON before any stream starts", async () => {
    const noKey = await postSse(
      `${base}/api/agents/${agentId}/query`,
      {},
      { query: "hi", streaming: true },
    );
    expect(noKey.status).toBe(401);
    expect(noKey.json).toMatchObject({ type: "UNAUTHORIZED" });

    const free = await t.app.createOrganization("Free");
    const freeAgent = await createAgent(t.app, free);
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
