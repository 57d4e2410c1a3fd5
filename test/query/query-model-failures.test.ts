import { describe, expect } from "vitest";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";

const test = appTest({
  env: { MODEL_TIMEOUT_MS: "1000", QUERY_HISTORY_TOKEN_BUDGET: "40" },
  agent: { modelName: "gpt_4o" },
});

const chatRequests = (fake: FakeOpenAI) =>
  fake.requests.filter((request) => request.path === "/v1/chat/completions");

describe("provider failures", () => {
  test("answers 500 with a clear message and never the provider's body", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    fake.script({ status: 400, errorMessage: "bad request for key sk-live-123 and prompt" });
    const response = await api.agents.query(agentId, {
      query: "hi",
      conversationId: "failed-400",
    });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      error: "The model gpt_4o failed: the provider rejected the request (HTTP 400)",
      type: "INTERNAL",
      requestId: expect.any(String),
    });
    expect(response.text).not.toContain("sk-live-123");
    expect(chatRequests(fake)).toHaveLength(1);
    const stored = await api.conversations.get("failed-400");
    expect(stored.status).toBe(404);
    const events = await api.consumptionEvents.list();
    expect(events.body.data).toEqual([]);
  });

  test("retries a temporary failure before the first token and then answers", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    fake.script(
      { status: 503, retryAfterMs: 0 },
      { status: 429, retryAfterMs: 0 },
      { text: "third time lucky" },
    );
    const response = await api.agents.query(agentId, { query: "hi" });
    expect(response.status).toBe(200);
    expect(response.body.answer).toBe("third time lucky");
    expect(chatRequests(fake)).toHaveLength(3);
  });

  test("gives up after the retries with the provider's status in the message", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    fake.script(
      { status: 503, retryAfterMs: 0 },
      { status: 503, retryAfterMs: 0 },
      { status: 503, retryAfterMs: 0 },
    );
    const response = await api.agents.query(agentId, { query: "hi" });
    expect(response.status).toBe(500);
    expect(response.error.error).toBe(
      "The model gpt_4o failed: the provider had an internal error (HTTP 503)",
    );
    expect(chatRequests(fake)).toHaveLength(3);
  });

  test("bounds a model that never answers by MODEL_TIMEOUT_MS and hangs up on it", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    fake.script({ hang: true });
    const response = await api.agents.query(agentId, { query: "are you there?" });
    expect(response.status).toBe(500);
    expect(response.error.error).toBe("The model gpt_4o did not answer in time");
    const closed = await fake.waitFor((request) => request.closedByClient);
    expect(closed.path).toBe("/v1/chat/completions");
  });

  test("does not retry a stream that stalls after its first token, and keeps what was sent", async ({
    app,
    api,
    fake,
    org,
    agent: { id: agentId },
  }) => {
    fake.script({ text: "one two three", hangAfterChunks: 1 });
    const base = await app.listen("api");
    const result = await postSse(`${base}/api/agents/${agentId}/query`, org.auth, {
      query: "count",
      streaming: true,
      conversationId: "stalled",
    });
    expect(summarize(result)).toMatchObject({
      answer: "one ",
      last: "[ERROR] The model gpt_4o did not answer in time",
    });
    expect(chatRequests(fake)).toHaveLength(1);
    const stored = await api.conversations.get("stalled");
    expect(stored.body.messages[1]).toMatchObject({
      text: "one ",
      metadata: { interrupted: "failed" },
    });
  });

  test("asks the provider for a plain (non-streamed) completion when the client does not stream", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    await api.agents.query(agentId, { query: "hi" });
    expect(chatRequests(fake)[0]?.body?.stream).toBeUndefined();
  });
});

describe("history budget", () => {
  test("drops the oldest messages that do not fit QUERY_HISTORY_TOKEN_BUDGET", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    const long = "word ".repeat(40);
    fake.script({ text: "short answer" });
    const first = (await api.agents.query(agentId, { query: long })).body;
    fake.requests.length = 0;
    await api.agents.query(agentId, { query: "follow-up", conversationId: first.conversationId });
    const messages = (chatRequests(fake)[0]?.body?.messages ?? []) as Array<{
      role: string;
      content: string;
    }>;
    // The 200-character question (54 estimated tokens) exceeds the budget of 40; the answer fits.
    expect(messages.filter((message) => message.role !== "system")).toEqual([
      { role: "assistant", content: "short answer" },
      { role: "user", content: "follow-up" },
    ]);
  });
});
