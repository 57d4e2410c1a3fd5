import { randomUUID } from "node:crypto";
import type { InjectOptions } from "fastify";
import { describe, expect } from "vitest";
import type { App } from "../../src/http/app-types.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createAgent } from "../harness/agents.ts";
import { ADMIN_TOKEN } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

type LogLine = Record<string, unknown> & { level: number; msg?: string; reqId?: string };

const INFO = 30;
const WARN = 40;

/** Every line the app logs, as production writes it (JSON, level info). */
const written: string[] = [];
const logger = createLogger("info", "json", { write: (line: string) => written.push(line) });

const test = appTest({
  offline: true,
  logger,
  env: { LEAD_RATE_LIMIT_PER_MINUTE: "1" },
  orgName: "Free plan",
  funded: false,
});

/**
 * Sends a request with a fresh request id; asserts that exactly one line was logged for it (the
 * access line) and returns it with the text it was written as.
 */
async function onlyLine(listener: App, request: InjectOptions) {
  const requestId = randomUUID();
  const response = await listener.inject({
    ...request,
    headers: { ...request.headers, "x-request-id": requestId },
  });
  // The line is written when the response closes, a tick after it finished.
  await new Promise((resolve) => setImmediate(resolve));
  const mine = written.filter((text) => text.includes(requestId));
  expect(mine).toHaveLength(1);
  const text = mine[0]!;
  return { status: response.statusCode, text, line: JSON.parse(text) as LogLine };
}

describe("refusals an operator can act on: one warn line with the route and organization", () => {
  test("401, a key that is not valid: no organization, never the key", async ({ app }) => {
    const key = "adk_revoked-or-mistyped-key";
    const { status, line, text } = await onlyLine(app.api, {
      method: "GET",
      url: "/api/agents",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(status).toBe(401);
    expect(line).toMatchObject({ level: WARN, msg: "request", route: "/api/agents", status: 401 });
    expect(line).not.toHaveProperty("organizationId");
    expect(text).not.toContain(key);
  });

  test("401, a wrong admin token on the admin API and /metrics: never the token", async ({
    app,
  }) => {
    for (const url of ["/api/admin/organizations", "/metrics"]) {
      const token = `${ADMIN_TOKEN}-guess`;
      const { status, line, text } = await onlyLine(app.api, {
        method: url === "/metrics" ? "GET" : "POST",
        url,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        payload: url === "/metrics" ? undefined : "{}",
      });
      expect(status).toBe(401);
      expect(line).toMatchObject({ level: WARN, route: url, status: 401 });
      expect(text).not.toContain(token);
    }
  });

  test("402, the free plan used up: the organization and the route pattern", async ({
    app,
    org,
  }) => {
    const agent = await createAgent(app, org);
    for (let index = 0; index < 5; index += 1) {
      const answered = await app.client(org.auth).agents.query(agent.id, { query: `q${index}` });
      expect(answered.status).toBe(200);
    }
    const { status, line, text } = await onlyLine(app.api, {
      method: "POST",
      url: `/api/agents/${agent.id}/query`,
      headers: { ...org.auth, "content-type": "application/json" },
      payload: JSON.stringify({ query: "one too many" }),
    });
    expect(status).toBe(402);
    expect(line).toMatchObject({
      level: WARN,
      route: "/api/agents/:id/query",
      status: 402,
      organizationId: org.id,
    });
    expect(text).not.toContain(agent.id);
    expect(text).not.toContain("one too many");
    expect(text).not.toContain(org.apiKey);
  });

  test("403, the spec's answers to a bad key (follow-up JSON, credits balance text)", async ({
    app,
  }) => {
    for (const [method, url, route] of [
      ["POST", "/api/agents/some-agent/follow-up/query", "/api/agents/:id/follow-up/query"],
      ["GET", "/api/credits/balance", "/api/credits/balance"],
    ] as const) {
      const { status, line } = await onlyLine(app.api, {
        method,
        url,
        headers: { authorization: "Bearer adk_wrong", "content-type": "application/json" },
        payload: method === "POST" ? "{}" : undefined,
      });
      expect(status).toBe(403);
      expect(line).toMatchObject({ level: WARN, route, status: 403 });
    }
  });

  test("429, the lead rate limit on the site listener", async ({ app }) => {
    const lead = {
      method: "POST" as const,
      url: "/api/leads",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
      payload: JSON.stringify({ name: "Jane", email: "jane@example.com" }),
    };
    const first = await onlyLine(app.site, lead);
    expect(first.status).toBe(201);
    expect(first.line).toMatchObject({ level: INFO, status: 201 });
    const { status, line, text } = await onlyLine(app.site, lead);
    expect(status).toBe(429);
    expect(line).toMatchObject({ level: WARN, route: "/api/leads", status: 429 });
    expect(text).not.toContain("jane@example.com");
  });
});

describe("other client errors stay at info", () => {
  test("400 and 404 are the client's business, with the organization where known", async ({
    app,
    org,
  }) => {
    const invalid = await onlyLine(app.api, {
      method: "POST",
      url: "/api/agents",
      headers: { ...org.auth, "content-type": "application/json" },
      payload: JSON.stringify({ name: "" }),
    });
    expect(invalid.status).toBe(400);
    expect(invalid.line).toMatchObject({ level: INFO, route: "/api/agents", status: 400 });
    const missing = await onlyLine(app.api, {
      method: "GET",
      url: "/api/agents/no-such-agent",
      headers: org.auth,
    });
    expect(missing.status).toBe(404);
    expect(missing.line).toMatchObject({
      level: INFO,
      route: "/api/agents/:id",
      status: 404,
      organizationId: org.id,
    });
  });
});
