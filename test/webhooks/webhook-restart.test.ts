import { test as base, describe, expect } from "vitest";
import { startReceiver } from "../fakes/http-receiver.ts";
import { startFakeOpenAI } from "../fakes/openai-server.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { createTestDatabase } from "../harness/database.ts";
import {
  conversationOf,
  createConversationalAgent,
  deliveriesOf,
  eventually,
  posts,
  waitForPosts,
} from "./webhook-helpers.ts";

// Several processes, restarts and waits for deliveries: more than the default test budget.
const SLOW_TEST_MS = 90_000;

/**
 * Once per file: a `database` the processes share, the `fake` OpenAI and the webhook `receiver`;
 * per test: the processes' `env` (a test may change it before starting one), and `processes`,
 * which starts and stops the app on the database, closing what a test left running.
 */
const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("database", { scope: "file" }, async ({}, { onCleanup }) => {
    const database = await createTestDatabase();
    onCleanup(() => database.close());
    return database;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("fake", { scope: "file" }, async ({}, { onCleanup }) => {
    const fake = await startFakeOpenAI({ apiKey: "sk-test" });
    onCleanup(() => fake.close());
    return fake;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("receiver", { scope: "file" }, async ({}, { onCleanup }) => {
    const receiver = await startReceiver();
    onCleanup(() => receiver.close());
    return receiver;
  })
  .extend(
    "env",
    ({ fake }): Record<string, string> => ({
      // No WEBHOOK_SIGNING_SECRET here: deliveries go out unsigned.
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.url,
      WEBHOOK_BATCH_DELAY_MS: "2000",
      WEBHOOK_RETRY_BASE_MS: "100",
    }),
  )
  .extend("processes", async ({ env, database }, { onCleanup }) => {
    const apps: TestApp[] = [];
    onCleanup(async () => {
      for (const app of apps.splice(0)) await app.close();
    });
    return {
      async start(role: "all" | "api" = "all"): Promise<TestApp> {
        const app = await startTestApp({ env, database, role });
        apps.push(app);
        return app;
      },
      async stop(app: TestApp) {
        apps.splice(apps.indexOf(app), 1);
        await app.close();
      },
    };
  });
test.beforeEach(({ fake, receiver }) => {
  fake.requests.length = 0;
  receiver.requests.length = 0;
  receiver.respondWith([]);
});

/** Lets a wrongly scheduled extra delivery arrive before the test counts. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2_500));

describe("batching windows live in the database", () => {
  test(
    "delivers once when the process restarts inside the window",
    async ({ processes: { start, stop }, fake, receiver }) => {
      const first = await start();
      const { org, agentId } = await createConversationalAgent(first, "Restart");
      fake.script({ text: "Delivered after a restart." });
      const queued = await first.client(org.auth).agents.query(agentId, {
        query: "Are you still there?",
        webhookUrl: `${receiver.url}/hook`,
      });
      expect(queued.status).toBe(200);
      const { conversationId } = queued.body;
      await stop(first);
      expect(posts(receiver)).toHaveLength(0);

      const second = await start();
      const [delivery] = await waitForPosts(receiver, 1);
      expect(JSON.parse(delivery!.body)).toMatchObject({
        conversationId,
        status: "success",
        messages: [expect.objectContaining({ text: "Delivered after a restart." })],
      });
      expect(delivery!.headers["x-service-delivery"]).toEqual(expect.any(String));
      expect(delivery!.headers["x-service-signature"]).toBeUndefined();

      await settle();
      expect(posts(receiver)).toHaveLength(1);
      const stored = await conversationOf(second, org, conversationId);
      expect(stored.messages.map((message) => message.from)).toEqual(["human", "agent"]);
      const deliveries = await deliveriesOf(second, org, conversationId);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ state: "delivered", attemptCount: 1 });
    },
    SLOW_TEST_MS,
  );

  test(
    "keeps retrying a delivery across a restart",
    async ({ processes: { start, stop }, fake, receiver, env }) => {
      const first = await start();
      const { org, agentId } = await createConversationalAgent(first, "Retries");
      fake.script({ text: "Eventually delivered." });
      env.WEBHOOK_RETRY_BASE_MS = "1500";
      await stop(first);
      const slowRetries = await start();
      const queued = await slowRetries.client(org.auth).agents.query(agentId, {
        query: "Hello?",
        webhookUrl: `${receiver.url}/hook`,
      });
      expect(queued.status).toBe(200);
      receiver.respondWith([500]);
      await waitForPosts(receiver, 1);
      await stop(slowRetries);

      const restarted = await start();
      const received = await waitForPosts(receiver, 2);
      expect(received[1]!.headers["x-service-delivery"]).toBe(
        received[0]!.headers["x-service-delivery"],
      );
      const delivery = await eventually(async () => {
        const [found] = await deliveriesOf(restarted, org, queued.body.conversationId);
        expect(found?.state).toBe("delivered");
        return found!;
      });
      expect(delivery.attempts).toHaveLength(2);
    },
    SLOW_TEST_MS,
  );

  test(
    "behaves as one service with two API processes and a separate worker",
    async ({ processes: { start }, fake, receiver }) => {
      const apiA = await start("api");
      const apiB = await start("api");
      await start("all");
      const { org, agentId } = await createConversationalAgent(apiA, "Two processes");
      fake.script({ text: "One answer for both processes." });
      const conversationId = "two-processes";
      const webhookUrl = `${receiver.url}/hook`;
      const [fromA, fromB] = await Promise.all([
        apiA
          .client(org.auth)
          .agents.query(agentId, { query: "Message to A.", conversationId, webhookUrl }),
        apiB
          .client(org.auth)
          .agents.query(agentId, { query: "Message to B.", conversationId, webhookUrl }),
      ]);
      expect(fromA.status).toBe(200);
      expect(fromB.status).toBe(200);
      expect(fromA.body.conversationId).toBe(conversationId);
      expect(fromB.body.conversationId).toBe(conversationId);

      const [delivery] = await waitForPosts(receiver, 1);
      await settle();
      expect(posts(receiver)).toHaveLength(1);
      const body = JSON.parse(delivery!.body);
      expect([...body.agentResponse.metadata.inputMessageIds].sort()).toEqual(
        [fromA.body.inputMessageId, fromB.body.inputMessageId].sort(),
      );
      const chats = fake.requests.filter((request) => request.path === "/v1/chat/completions");
      expect(chats).toHaveLength(1);
      const sent = JSON.stringify(chats[0]!.body);
      expect(sent).toContain("Message to A.");
      expect(sent).toContain("Message to B.");
    },
    SLOW_TEST_MS,
  );
});
