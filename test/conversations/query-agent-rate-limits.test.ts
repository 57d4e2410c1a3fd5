import { randomInt, randomUUID } from "node:crypto";
import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({
  env: {
    QUERY_ANONYMOUS_RATE_LIMIT_PER_MINUTE: "2",
    QUERY_ANONYMOUS_IP_RATE_LIMIT_PER_MINUTE: "3",
    QUERY_ANONYMOUS_CONVERSATIONS_PER_AGENT_PER_HOUR: "3",
  },
  orgName: "Widget owner",
});

/** A documentation-range address per test: each test's counters are its own. */
const randomIp = () => `198.18.${randomInt(0, 255)}.${randomInt(1, 254)}`;

type Append = {
  body: Record<string, unknown>;
  /** Where the request comes from; the per-IP limit counts by it. */
  ip: string;
  /** Sends this organization's key; anonymous when absent. */
  as?: TestOrganization;
};

/** POST /api/agents/{id}/query-agent as a browser (or a key holder) sends it. */
async function append(app: TestApp, agentId: string, request: Append) {
  const response = await app.api.inject({
    method: "POST",
    url: `/api/agents/${agentId}/query-agent`,
    headers: request.as ? request.as.auth : {},
    payload: request.body,
    remoteAddress: request.ip,
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() };
}

/** The conversations of an agent, as its organization lists them. */
async function conversationsOf(app: TestApp, org: TestOrganization, agentId: string) {
  const response = await app.client(org.auth).conversations.list({ agentId });
  expect(response.status).toBe(200);
  return response.body.data as { id: string }[];
}

const greeting = (visitorId?: string) => ({
  query: "Hello! Ask me anything.",
  ...(visitorId ? { visitorId } : {}),
});

function expectRefused(
  response: Awaited<ReturnType<typeof append>>,
  about: "this visitor" | "this address" | "this agent",
) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({
    error: expect.stringContaining(about),
    type: "RATE_LIMITED",
    requestId: expect.any(String),
  });
  expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
}

describe("query-agent without a key: per visitor (QUERY_ANONYMOUS_RATE_LIMIT_PER_MINUTE)", () => {
  test("refuses a visitor's third message in a minute with 429 and Retry-After, and stores nothing", async ({
    app,
    org,
  }) => {
    const agent = await createAgent(app, org, { visibility: "public" });
    const visitor = `visitor-${randomUUID()}`;
    // From different addresses: only the visitor's own counter can refuse it.
    const first = await append(app, agent.id, { body: greeting(visitor), ip: randomIp() });
    expect(first.status).toBe(200);
    const continued = await append(app, agent.id, {
      body: { ...greeting(visitor), conversationId: first.body.conversationId },
      ip: randomIp(),
    });
    expect(continued.status).toBe(200);
    const refused = await append(app, agent.id, { body: greeting(visitor), ip: randomIp() });
    expectRefused(refused, "this visitor");
    expect(await conversationsOf(app, org, agent.id)).toHaveLength(1);

    const otherVisitor = await append(app, agent.id, {
      body: greeting(`visitor-${randomUUID()}`),
      ip: randomIp(),
    });
    expect(otherVisitor.status).toBe(200);
  });
});

describe("query-agent without a key: per IP (QUERY_ANONYMOUS_IP_RATE_LIMIT_PER_MINUTE)", () => {
  test("refuses an address's fourth message in a minute, whatever the visitor id", async ({
    app,
    org,
  }) => {
    const agent = await createAgent(app, org, { visibility: "public" });
    const ip = randomIp();
    // An invalid body is refused before it is counted.
    for (let index = 0; index < 4; index += 1) {
      expect((await append(app, agent.id, { body: { query: "" }, ip })).status).toBe(400);
    }
    // With and without a visitor id alike.
    const started = [];
    for (const visitor of [`visitor-${randomUUID()}`, undefined, `visitor-${randomUUID()}`]) {
      const response = await append(app, agent.id, { body: greeting(visitor), ip });
      expect(response.status).toBe(200);
      started.push(response.body as { conversationId: string; visitorId: string });
    }
    expectRefused(await append(app, agent.id, { body: greeting(), ip }), "this address");
    expectRefused(
      await append(app, agent.id, { body: { ...greeting(), streaming: true }, ip }),
      "this address",
    );
    expect(await conversationsOf(app, org, agent.id)).toHaveLength(3);

    // The same visitor from another address (the agent's 3 new conversations are its cap).
    const { conversationId, visitorId } = started[0]!;
    const elsewhere = await append(app, agent.id, {
      body: { ...greeting(visitorId), conversationId },
      ip: randomIp(),
    });
    expect(elsewhere.status).toBe(200);
  });

  test("never limits a caller with a key, from a refused address or visitor", async ({
    app,
    org,
  }) => {
    const agent = await createAgent(app, org, { visibility: "public" });
    const ip = randomIp();
    const visitor = `visitor-${randomUUID()}`;
    for (let index = 0; index < 3; index += 1) {
      await append(app, agent.id, { body: greeting(index < 2 ? visitor : undefined), ip });
    }
    expectRefused(await append(app, agent.id, { body: greeting(), ip }), "this address");

    const keyed = await Promise.all(
      Array.from({ length: 8 }, () =>
        append(app, agent.id, { body: greeting(visitor), ip, as: org }),
      ),
    );
    expect(keyed.map((response) => response.status)).toEqual(Array(8).fill(200));
  });

  test("an invalid key is still 401, not counted as anonymous", async ({ app, org }) => {
    const agent = await createAgent(app, org, { visibility: "public" });
    const ip = randomIp();
    const stranger = { ...org, auth: { authorization: "Bearer adk_not-a-key" } };
    for (let index = 0; index < 5; index += 1) {
      expect((await append(app, agent.id, { body: greeting(), ip, as: stranger })).status).toBe(
        401,
      );
    }
    expect((await append(app, agent.id, { body: greeting(), ip })).status).toBe(200);
  });
});

describe("anonymous new conversations per agent (QUERY_ANONYMOUS_CONVERSATIONS_PER_AGENT_PER_HOUR)", () => {
  test("refuses an agent's fourth new anonymous conversation in the hour; continuing one and keys are not counted", async ({
    app,
    org,
  }) => {
    const agent = await createAgent(app, org, { visibility: "public" });
    const started = [];
    for (let index = 0; index < 3; index += 1) {
      const visitor = `visitor-${randomUUID()}`;
      const response = await append(app, agent.id, { body: greeting(visitor), ip: randomIp() });
      expect(response.status).toBe(200);
      started.push({ visitor, conversationId: response.body.conversationId as string });
    }
    // A new visitor from a new address: only the agent's counter can refuse it.
    const refused = await append(app, agent.id, {
      body: greeting(`visitor-${randomUUID()}`),
      ip: randomIp(),
    });
    expectRefused(refused, "this agent");
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    expect(await conversationsOf(app, org, agent.id)).toHaveLength(3);

    // Continuing a conversation started without a key starts none.
    const { visitor, conversationId } = started[0]!;
    const continued = await append(app, agent.id, {
      body: { ...greeting(visitor), conversationId },
      ip: randomIp(),
    });
    expect(continued.status).toBe(200);
    // The owner's integration is not limited by the visitors' cap.
    const keyed = await append(app, agent.id, { body: greeting(), ip: randomIp(), as: org });
    expect(keyed.status).toBe(200);
    expect(await conversationsOf(app, org, agent.id)).toHaveLength(4);

    // Each agent has its own cap.
    const other = await createAgent(app, org, { name: "Other", visibility: "public" });
    expect((await append(app, other.id, { body: greeting(), ip: randomIp() })).status).toBe(200);
  });
});

describe("the settings", () => {
  test("documents the 429 of query-agent in the OpenAPI document", async ({ app }) => {
    const document = (await app.api.inject({ url: "/api/openapi.json" })).json();
    const responses = document.paths["/api/agents/{id}/query-agent"].post.responses;
    expect(responses["429"].description).toMatch(/without an API key/i);
  });

  test.for([
    "QUERY_ANONYMOUS_RATE_LIMIT_PER_MINUTE",
    "QUERY_ANONYMOUS_IP_RATE_LIMIT_PER_MINUTE",
    "QUERY_ANONYMOUS_CONVERSATIONS_PER_AGENT_PER_HOUR",
  ])("a bad %s stops boot, naming it", async (name) => {
    await expect(startTestApp({ env: { [name]: "0" } })).rejects.toThrow(new RegExp(name));
  });
});
