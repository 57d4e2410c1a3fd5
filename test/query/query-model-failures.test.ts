import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  query,
  startQueryTestApp,
} from "../agents/agent-helpers.ts";
import type { TestOrganization } from "../harness/app.ts";
import { postSse, summarize } from "./sse-client.ts";

let t: QueryTestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startQueryTestApp({ MODEL_TIMEOUT_MS: "1000", QUERY_HISTORY_TOKEN_BUDGET: "40" });
  org = await createFundedOrganization(t.app);
  agentId = (await createAgent(t.app, org, { modelName: "gpt_4o" })).id;
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.requests.length = 0;
});

const chatRequests = () =>
  t.fake.requests.filter((request) => request.path === "/v1/chat/completions");

describe("provider failures", () => {
  it("answers 500 with a clear message and never the provider's body", async () => {
    t.fake.script({ status: 400, errorMessage: "bad request for key sk-live-123 and prompt" });
    const response = await query(t.app, org, agentId, {
      query: "hi",
      conversationId: "failed-400",
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: "The model gpt_4o failed: the provider rejected the request (HTTP 400)",
      type: "INTERNAL",
      requestId: expect.any(String),
    });
    expect(response.body).not.toContain("sk-live-123");
    expect(chatRequests()).toHaveLength(1);
    const stored = await t.app.api.inject({
      url: "/api/conversations/failed-400",
      headers: org.auth,
    });
    expect(stored.statusCode).toBe(404);
    const events = await t.app.api.inject({ url: "/api/consumption-events", headers: org.auth });
    expect(events.json().data).toEqual([]);
  });

  it("retries a temporary failure before the first token and then answers", async () => {
    t.fake.script(
      { status: 503, retryAfterMs: 0 },
      { status: 429, retryAfterMs: 0 },
      { text: "third time lucky" },
    );
    const response = await query(t.app, org, agentId, { query: "hi" });
    expect(response.statusCode).toBe(200);
    expect(response.json().answer).toBe("third time lucky");
    expect(chatRequests()).toHaveLength(3);
  });

  it("gives up after the retries with the provider's status in the message", async () => {
    t.fake.script(
      { status: 503, retryAfterMs: 0 },
      { status: 503, retryAfterMs: 0 },
      { status: 503, retryAfterMs: 0 },
    );
    const response = await query(t.app, org, agentId, { query: "hi" });
    expect(response.statusCode).toBe(500);
    expect(response.json().error).toBe(
      "The model gpt_4o failed: the provider had an internal error (HTTP 503)",
    );
    expect(chatRequests()).toHaveLength(3);
  });

  it("bounds a model that never answers by MODEL_TIMEOUT_MS and hangs up on it", async () => {
    t.fake.script({ hang: true });
    const response = await query(t.app, org, agentId, { query: "are you there?" });
    expect(response.statusCode).toBe(500);
    expect(response.json().error).toBe("The model gpt_4o did not answer in time");
    const closed = await t.fake.waitFor((request) => request.closedByClient);
    expect(closed.path).toBe("/v1/chat/completions");
  });

  it("does not retry a stream that stalls after its first token, and keeps what was sent", async () => {
    t.fake.script({ text: "one two three", hangAfterChunks: 1 });
    const base = await t.app.listen("api");
    const result = await postSse(`${base}/api/agents/${agentId}/query`, org.auth, {
      query: "count",
      streaming: true,
      conversationId: "stalled",
    });
    expect(summarize(result)).toMatchObject({
      answer: "one ",
      last: "[ERROR] The model gpt_4o did not answer in time",
    });
    expect(chatRequests()).toHaveLength(1);
    const stored = await t.app.api.inject({ url: "/api/conversations/stalled", headers: org.auth });
    expect(stored.json().messages[1]).toMatchObject({
      text: "one ",
      metadata: { interrupted: "failed" },
    });
  });

  it("asks the provider for a plain (non-streamed) completion when the client does not stream", async () => {
    await query(t.app, org, agentId, { query: "hi" });
    expect(chatRequests()[0]?.body?.stream).toBeUndefined();
  });
});

describe("history budget", () => {
  it("drops the oldest messages that do not fit QUERY_HISTORY_TOKEN_BUDGET", async () => {
    const long = "word ".repeat(40);
    t.fake.script({ text: "short answer" });
    const first = (await query(t.app, org, agentId, { query: long })).json();
    t.fake.requests.length = 0;
    await query(t.app, org, agentId, { query: "follow-up", conversationId: first.conversationId });
    const messages = (chatRequests()[0]?.body?.messages ?? []) as Array<{
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
