import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai-server.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { publicChat } from "./public-chat-helpers.ts";

const test = appTest({
  env: { PUBLIC_CHAT_RATE_LIMIT_PER_MINUTE: "2", PUBLIC_CHAT_IP_RATE_LIMIT_PER_MINUTE: "3" },
  agent: { visibility: "public" },
});

const ask = (visitorId: string) => ({ query: "Opening hours?", visitorId });

describe("the per-visitor limit (PUBLIC_CHAT_RATE_LIMIT_PER_MINUTE)", () => {
  test("refuses a visitor's third message in a minute with 429 and Retry-After, not others'", async ({
    app,
    fake,
    agent,
  }) => {
    const visitor = "visitor-limited-1";
    // From different addresses: only the visitor's own counter can refuse it.
    for (const remoteAddress of ["198.51.100.1", "198.51.100.2"]) {
      expect((await publicChat(app, agent.id, ask(visitor), { remoteAddress })).statusCode).toBe(
        200,
      );
    }
    fake.requests.length = 0;
    const refused = await publicChat(app, agent.id, ask(visitor), {
      remoteAddress: "198.51.100.3",
      headers: { origin: "https://shop.example.com" },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      type: "RATE_LIMITED",
      error: expect.stringContaining("this visitor"),
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // The widget can read the refusal: it carries the CORS headers.
    expect(refused.headers["access-control-allow-origin"]).toBe("https://shop.example.com");
    expect(fake.requests).toHaveLength(0);

    const otherVisitor = await publicChat(app, agent.id, ask("visitor-limited-2"), {
      remoteAddress: "198.51.100.3",
    });
    expect(otherVisitor.statusCode).toBe(200);
  });
});

describe("the per-IP limit (PUBLIC_CHAT_IP_RATE_LIMIT_PER_MINUTE)", () => {
  test("refuses an address's fourth message in a minute, whatever the visitor id", async ({
    app,
    fake,
    agent,
  }) => {
    const remoteAddress = "203.0.113.50";
    for (const visitor of ["visitor-ip-1", "visitor-ip-2", "visitor-ip-3"]) {
      expect((await publicChat(app, agent.id, ask(visitor), { remoteAddress })).statusCode).toBe(
        200,
      );
    }
    fake.requests.length = 0;
    const refused = await publicChat(app, agent.id, ask("visitor-ip-4"), { remoteAddress });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      type: "RATE_LIMITED",
      error: expect.stringContaining("this address"),
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(0);

    const elsewhere = await publicChat(app, agent.id, ask("visitor-ip-4"), {
      remoteAddress: "203.0.113.51",
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)("the limits shared through Redis", () => {
  let fake: FakeOpenAI;
  let first: TestApp;
  let second: TestApp;
  let agentId: string;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: "sk-test" });
    const env = {
      REDIS_URL: redisUrl!,
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.url,
      PUBLIC_CHAT_RATE_LIMIT_PER_MINUTE: "3",
    };
    first = await startTestApp({ env });
    second = await startTestApp({ env, database: first.database });
    const org = await createFundedOrganization(first, "Shared");
    agentId = (await createAgent(first, org, { visibility: "public" })).id;
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await fake?.close();
  });

  test("two API instances count one visitor's messages together", async () => {
    // A fresh visitor id, so runs sharing one Redis never collide.
    const visitor = `visitor-${randomUUID()}`;
    const statuses: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const response = await publicChat(index % 2 ? first : second, agentId, ask(visitor));
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });
});
