import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect } from "vitest";
import { ADMIN_TOKEN, type TestApp, type TestOrganization } from "../harness/app.ts";
import {
  conversationOf,
  createConversationalAgent,
  deliveriesOf,
  eventually,
  posts,
  type WebhookFixtures,
  waitForPosts,
  webhookTest,
} from "./webhook-helpers.ts";

const RETRY_BASE_MS = 100;
const MAX_ATTEMPTS = 3;

const test = webhookTest({
  env: {
    WEBHOOK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
    WEBHOOK_TIMEOUT_MS: "2000",
  },
});

async function queue(
  { api, agent, receiver }: Pick<WebhookFixtures, "api" | "agent" | "receiver">,
  query: string,
  webhookUrl = `${receiver.url}/hook`,
) {
  const response = await api.agents.query(agent.id, { query, webhookUrl });
  expect(response.status).toBe(200);
  return response.body as { conversationId: string; inputMessageId: string };
}

async function settledDelivery(app: TestApp, org: TestOrganization, conversationId: string) {
  return eventually(async () => {
    const [delivery, ...more] = await deliveriesOf(app, org, conversationId);
    expect(more).toEqual([]);
    expect(["delivered", "failed"]).toContain(delivery?.state);
    return delivery as Record<string, unknown> & {
      attempts: Array<Record<string, unknown> & { startedAt: string }>;
    };
  });
}

describe("webhook retries", () => {
  test("retries a failing receiver with backoff and the same delivery id, then records it delivered", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    fake.script({ text: "Your refund was approved." });
    const { conversationId } = await queue({ api, agent, receiver }, "Was my refund approved?");
    // Set after the query: the HEAD probe must not use up the failures.
    receiver.respondWith([500, 503]);

    const received = await waitForPosts(receiver, 3);
    const ids = received.map((request) => request.headers["x-service-delivery"]);
    expect(new Set(ids).size).toBe(1);
    expect(new Set(received.map((request) => request.body)).size).toBe(1);

    const delivery = await settledDelivery(app, org, conversationId);
    expect(delivery).toMatchObject({
      id: ids[0],
      state: "delivered",
      status: "success",
      attemptCount: 3,
      lastError: null,
      deliveredAt: expect.any(String),
    });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: "failed", responseStatus: 500 }),
      expect.objectContaining({ attempt: 2, outcome: "failed", responseStatus: 503 }),
      expect.objectContaining({ attempt: 3, outcome: "delivered", responseStatus: 200 }),
    ]);
    // Each retry waits at least its backoff: base, then twice the base.
    const started = delivery.attempts.map((attempt) => Date.parse(attempt.startedAt));
    expect(started[1]! - started[0]!).toBeGreaterThanOrEqual(RETRY_BASE_MS);
    expect(started[2]! - started[1]!).toBeGreaterThanOrEqual(2 * RETRY_BASE_MS);

    const stored = await conversationOf(app, org, conversationId);
    expect(stored.messages.map((message) => [message.from, message.text])).toEqual([
      ["human", "Was my refund approved?"],
      ["agent", "Your refund was approved."],
    ]);
    expect(posts(receiver)).toHaveLength(3);
  });

  test("gives up after the configured attempts and keeps the last error", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    fake.script({ text: "Noted." });
    const { conversationId } = await queue({ api, agent, receiver }, "Please note my address.");
    receiver.respondWith(Array.from({ length: MAX_ATTEMPTS + 2 }, () => 500));
    const delivery = await settledDelivery(app, org, conversationId);
    expect(delivery).toMatchObject({
      state: "failed",
      attemptCount: MAX_ATTEMPTS,
      lastError: "The receiver answered HTTP 500",
      deliveredAt: null,
      nextAttemptAt: null,
    });
    expect(delivery.attempts.map((attempt) => attempt.outcome)).toEqual([
      "failed",
      "failed",
      "failed",
    ]);
    await new Promise((resolve) => setTimeout(resolve, 4 * RETRY_BASE_MS * 2 ** MAX_ATTEMPTS));
    expect(posts(receiver)).toHaveLength(MAX_ATTEMPTS);
  });
});

describe("webhook timeouts", () => {
  let slow: Server;
  let slowUrl: string;
  const seen: string[] = [];
  test.beforeAll(async () => {
    // Answers HEAD probes at once, leaves the first POST hanging, answers later POSTs.
    slow = createServer((request, response) => {
      request.resume();
      if (request.method !== "POST") return response.end();
      seen.push(String(request.headers["x-service-delivery"]));
      if (seen.length > 1) response.end("ok");
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
  });
  test.afterAll(async () => {
    slow.closeAllConnections();
    await new Promise((resolve) => slow.close(resolve));
  });

  test("counts a receiver that does not answer in time as a failed attempt and retries", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    fake.script({ text: "On its way." });
    const { conversationId } = await queue({ api, agent, receiver }, "Status?", slowUrl);
    const delivery = await settledDelivery(app, org, conversationId);
    expect(delivery.state).toBe("delivered");
    expect(delivery.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        outcome: "failed",
        responseStatus: null,
        error: expect.stringContaining("did not answer within 2000 ms"),
      }),
      expect.objectContaining({ attempt: 2, outcome: "delivered", responseStatus: 200 }),
    ]);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
  });
});

describe("webhook redirects", () => {
  test("counts a redirect as a failed attempt instead of following it", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    let posted = 0;
    const redirecting = createServer((request, response) => {
      request.resume();
      if (request.method === "POST") posted += 1;
      if (request.method === "POST" && posted === 1) {
        response.writeHead(307, { location: `${receiver.url}/elsewhere` });
      }
      response.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/moved`;
      fake.script({ text: "Redirect test." });
      const { conversationId } = await queue({ api, agent, receiver }, "Hello", url);
      const delivery = await settledDelivery(app, org, conversationId);
      expect(delivery.state).toBe("delivered");
      expect(delivery.attempts).toEqual([
        expect.objectContaining({
          attempt: 1,
          outcome: "failed",
          error: "The receiver answered with a redirect, which webhooks do not follow",
        }),
        expect.objectContaining({ attempt: 2, outcome: "delivered", responseStatus: 200 }),
      ]);
      expect(posts(receiver)).toHaveLength(0);
    } finally {
      redirecting.closeAllConnections();
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });
});

describe("when no answer can be generated", () => {
  test("delivers status error with the model's failure and stores no agent message", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    fake.script({ status: 400, errorMessage: "invalid request sk-secret-1" });
    const { conversationId, inputMessageId } = await queue({ api, agent, receiver }, "Hello?");
    const [request] = await waitForPosts(receiver, 1);
    const body = JSON.parse(request!.body);
    expect(body).toEqual({
      conversationId,
      visitorId: expect.any(String),
      status: "error",
      error: {
        type: "INTERNAL",
        message: "The model gpt_4o_mini failed: the provider rejected the request (HTTP 400)",
      },
      inputMessageIds: [inputMessageId],
      messages: [],
      agentResponse: null,
      messageId: null,
    });
    expect(request!.body).not.toContain("sk-secret-1");
    expect(request!.headers["x-service-event"]).toBe("agent.response");
    const delivery = await settledDelivery(app, org, conversationId);
    expect(delivery).toMatchObject({ status: "error", state: "delivered" });
    const stored = await conversationOf(app, org, conversationId);
    expect(stored.messages.map((message) => message.from)).toEqual(["human"]);
  });

  test("delivers status error USAGE_LIMIT when the organization is blocked before the window closes", async ({
    app,
    fake,
    receiver,
  }) => {
    const blocked = await createConversationalAgent(app, "Soon overdue");
    const response = await app.client(blocked.org.auth).agents.query(blocked.agentId, {
      query: "Hello",
      webhookUrl: `${receiver.url}/hook`,
    });
    expect(response.status).toBe(200);
    const patched = await app.api.inject({
      method: "PATCH",
      url: `/api/admin/organizations/${blocked.org.id}/billing`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { subscriptionStatus: "past_due" },
    });
    expect(patched.statusCode).toBe(200);
    const [request] = await waitForPosts(receiver, 1);
    expect(JSON.parse(request!.body)).toMatchObject({
      status: "error",
      error: { type: "USAGE_LIMIT" },
      conversationId: response.body.conversationId,
    });
    expect(fake.requests).toHaveLength(0);
  });
});
