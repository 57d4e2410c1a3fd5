import { expect } from "vitest";
import { type ReceivedRequest, type Receiver, startReceiver } from "../fakes/http-receiver.ts";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import type { ApiClient } from "../harness/client.ts";
import { type AppTestOptions, appTest } from "../harness/fixtures.ts";

export const SIGNING_SECRET = "whsec-test-secret";

/** Short windows and fast retries, so a test waits milliseconds where production waits minutes. */
export const FAST_WEBHOOKS = {
  WEBHOOK_BATCH_DELAY_MS: "600",
  WEBHOOK_RETRY_BASE_MS: "100",
  WEBHOOK_TIMEOUT_MS: "2000",
  WEBHOOK_SIGNING_SECRET: SIGNING_SECRET,
};

/**
 * The `test` of a file about webhooks: `appTest` with fast webhook windows and retries (`env`
 * over them), its `agent` in conversational mode (`agent` fields over it), and
 * - `receiver`: a webhook receiver on 127.0.0.1, set up once per file; its recorded `requests`
 *   start empty, and its scripted statuses used up, in every test.
 */
export function webhookTest(options: AppTestOptions = {}) {
  return appTest({
    ...options,
    env: { ...FAST_WEBHOOKS, ...options.env },
    agent: { useConversationalMode: true, ...options.agent },
  })
    .extend("receiver", { scope: "file" }, async ({ service }, { onCleanup }) => {
      // Started after the app, so closed before it (the app's deliveries then fail, unseen).
      void service;
      const receiver = await startReceiver();
      onCleanup(() => receiver.close());
      return receiver;
    })
    .extend("receiverReset", { auto: true }, ({ receiver }) => {
      receiver.requests.length = 0;
      receiver.respondWith([]);
      return true;
    });
}

/** The fixtures of `webhookTest` that the helpers of a file take. */
export type WebhookFixtures = {
  app: TestApp;
  api: ApiClient;
  org: TestOrganization;
  agent: { id: string };
  fake: FakeOpenAI;
  receiver: Receiver;
};

export async function createConversationalAgent(
  app: TestApp,
  name = "Acme",
  body: Record<string, unknown> = {},
): Promise<{ org: TestOrganization; agentId: string }> {
  const org = await createFundedOrganization(app, name);
  const agent = await createAgent(app, org, { useConversationalMode: true, ...body });
  return { org, agentId: agent.id };
}

/** The webhook POSTs a receiver got (its HEAD requests are the reachability probes). */
export const posts = (receiver: Receiver): ReceivedRequest[] =>
  receiver.requests.filter((request) => request.method === "POST");

/** Resolves once the receiver got `count` POSTs. */
export async function waitForPosts(receiver: Receiver, count: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (posts(receiver).length < count) {
    if (Date.now() > deadline) {
      throw new Error(`expected ${count} webhook POSTs, got ${posts(receiver).length}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return posts(receiver);
}

/** Polls until the check passes (for state written after the receiver answered). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export async function deliveriesOf(app: TestApp, org: TestOrganization, conversationId: string) {
  const response = await app.api.inject({
    url: `/api/conversations/${conversationId}/webhook-deliveries`,
    headers: org.auth,
  });
  expect(response.statusCode).toBe(200);
  return response.json().data as Array<Record<string, unknown> & { attempts: unknown[] }>;
}

export async function conversationOf(app: TestApp, org: TestOrganization, conversationId: string) {
  const response = await app.api.inject({
    url: `/api/conversations/${conversationId}`,
    headers: org.auth,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    channel: string;
    status: string;
    messages: Array<{
      id: string;
      from: string;
      text: string;
      metadata: Record<string, unknown>;
      agentVersion: number | null;
    }>;
  };
}
