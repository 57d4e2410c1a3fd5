import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { connect } from "node:net";
import { Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { describe, expect } from "vitest";
import type { App } from "../../src/http/app-types.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { startTestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

type LogLine = Record<string, unknown> & { level: number; msg?: string; reqId?: string };

const INFO = 30;
const WARN = 40;
const ERROR = 50;

/** Every line the app logs, as production writes it (JSON, level info, redaction on). */
const written: string[] = [];
const logger = createLogger("info", "json", { write: (line: string) => written.push(line) });

/** What the `pretty` app and loggers print, as a terminal would show it. */
const printed: string[] = [];
// pino-pretty pipes into its destination, which must therefore be a stream.
const terminal = () =>
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      printed.push(chunk.toString());
      done();
    },
  });

const test = appTest({
  logger,
  env: { LEAD_RATE_LIMIT_PER_MINUTE: "10000" },
  offline: true,
  funded: false,
  orgName: "Logged",
}).extend("pretty", { scope: "file" }, async ({ app }, { onCleanup }) => {
  // A second API process on the same database, logging with LOG_FORMAT=pretty.
  const pretty = await startTestApp({
    database: app.database,
    role: "api",
    logger: createLogger("info", "pretty", terminal()),
    env: { LEAD_RATE_LIMIT_PER_MINUTE: "10000" },
  });
  onCleanup(() => pretty.close());
  return pretty;
});

/**
 * Sends a request with a fresh X-Request-Id and returns its status and the lines logged with
 * that id, each with the raw text it was written as.
 */
async function send(listener: App, request: InjectOptions) {
  const requestId = randomUUID();
  const response = await listener.inject({
    ...request,
    headers: { ...request.headers, "x-request-id": requestId },
  });
  // The line is written when the response closes, a tick after it finished.
  await new Promise((resolve) => setImmediate(resolve));
  const mine = written
    .filter((text) => text.includes(requestId))
    .map((text) => ({ text, line: JSON.parse(text) as LogLine }));
  expect(mine.every(({ line }) => line.reqId === requestId)).toBe(true);
  return { status: response.statusCode, requestId, lines: mine };
}

/** The request's one access line: asserts that it is the only line logged for it. */
async function accessLine(listener: App, request: InjectOptions) {
  const sent = await send(listener, request);
  expect(sent.lines.map(({ line }) => line.msg)).toEqual(["request"]);
  return { ...sent, ...sent.lines[0]! };
}

function expectAccessFields(line: LogLine) {
  expect(Object.keys(line).sort()).toEqual(
    [
      "level",
      "time",
      "pid",
      "hostname",
      "reqId",
      "method",
      "route",
      "status",
      "durationMs",
      "msg",
      ...("organizationId" in line ? ["organizationId"] : []),
    ].sort(),
  );
  expect(line.durationMs).toEqual(expect.any(Number));
  expect(line.durationMs as number).toBeGreaterThanOrEqual(0);
  expect(Math.round((line.durationMs as number) * 10) / 10).toBe(line.durationMs);
}

describe("one access line per request, dashboard API", () => {
  test("200: info, the route, the caller's organization; no query string", async ({ app, org }) => {
    const { status, line, text } = await accessLine(app.api, {
      method: "GET",
      url: "/api/annotation-tags?apiKey=leaked-key&note=private",
      headers: org.auth,
    });
    expect(status).toBe(200);
    expectAccessFields(line);
    expect(line).toMatchObject({
      level: INFO,
      method: "GET",
      route: "/api/annotation-tags",
      status: 200,
      organizationId: org.id,
    });
    expect(text).not.toContain("leaked-key");
    expect(text).not.toContain("private");
    expect(text).not.toContain(org.apiKey);
  });

  test("404 of a known route: info (the client's business), the route's pattern, not the id in the URL", async ({
    app,
    org,
  }) => {
    const { status, line, text } = await accessLine(app.api, {
      method: "GET",
      url: "/api/agents/agent-that-does-not-exist",
      headers: org.auth,
    });
    expect(status).toBe(404);
    expectAccessFields(line);
    expect(line).toMatchObject({
      level: INFO,
      route: "/api/agents/:id",
      status: 404,
      organizationId: org.id,
    });
    expect(text).not.toContain("agent-that-does-not-exist");
  });

  test("404 of no route: the path as sent, without its query string", async ({ app, org }) => {
    const { status, line, text } = await accessLine(app.api, {
      method: "DELETE",
      url: "/api/nothing-here/42?token=abc123",
      headers: org.auth,
    });
    expect(status).toBe(404);
    expectAccessFields(line);
    expect(line).toMatchObject({ level: INFO, method: "DELETE", route: "/api/nothing-here/42" });
    expect(line).not.toHaveProperty("organizationId");
    expect(text).not.toContain("abc123");
  });

  test("401: warn, no organization, and neither the key sent nor its header", async ({ app }) => {
    const { status, line, text } = await accessLine(app.api, {
      method: "GET",
      url: "/api/annotation-tags",
      headers: { authorization: "Bearer adk_not-a-key-of-anyone" },
    });
    expect(status).toBe(401);
    expectAccessFields(line);
    expect(line).toMatchObject({ level: WARN, route: "/api/annotation-tags", status: 401 });
    expect(line).not.toHaveProperty("organizationId");
    expect(text).not.toContain("adk_not-a-key-of-anyone");
    expect(text.toLowerCase()).not.toContain("authorization");
  });

  test("400: info, and no error line besides it; the body is not logged", async ({ app, org }) => {
    const { status, line, text } = await accessLine(app.api, {
      method: "POST",
      url: "/api/annotation-tags",
      headers: { ...org.auth, "content-type": "application/json" },
      payload: JSON.stringify({ name: "", secretNote: "do-not-log-me" }),
    });
    expect(status).toBe(400);
    expectAccessFields(line);
    expect(line).toMatchObject({
      level: INFO,
      method: "POST",
      route: "/api/annotation-tags",
      status: 400,
      organizationId: org.id,
    });
    expect(text).not.toContain("do-not-log-me");
  });

  test("500: the error once with its stack, then the access line at error", async ({
    app,
    org,
  }) => {
    // A table gone from under the service: the read fails as a real fault would.
    await app.database.db.execute(sql`alter table annotation_tags rename to annotation_tags_away`);
    try {
      const { status, requestId, lines } = await send(app.api, {
        method: "GET",
        url: "/api/annotation-tags",
        headers: org.auth,
      });
      expect(status).toBe(500);
      expect(lines.map(({ line }) => [line.msg, line.level])).toEqual([
        ["request failed", ERROR],
        ["request", ERROR],
      ]);
      const [failure, access] = lines.map(({ line }) => line);
      expect(failure).toMatchObject({ reqId: requestId, err: { stack: expect.any(String) } });
      expect((failure!.err as { stack: string }).stack).toMatch(/annotation_tags/);
      expectAccessFields(access!);
      expect(access).toMatchObject({
        route: "/api/annotation-tags",
        status: 500,
        organizationId: org.id,
      });
    } finally {
      await app.database.db.execute(
        sql`alter table annotation_tags_away rename to annotation_tags`,
      );
    }
  });
});

describe("requests that end early", () => {
  test("a URL refused before routing: its path without the query string", async ({ app }) => {
    const { status, line, text } = await accessLine(app.api, {
      method: "GET",
      url: "/api/agents/%zz?token=abc123",
    });
    expect(status).toBe(400);
    expect(line).toMatchObject({ level: INFO, route: "/api/agents/%zz", status: 400 });
    expect(text).not.toContain("abc123");
  });

  test("a client that leaves before its body is sent: one warn line, aborted, no status", async ({
    app,
  }) => {
    const base = new URL(await app.listen("site"));
    const socket = connect(Number(base.port), base.hostname);
    await once(socket, "connect");
    socket.write(
      [
        "POST /api/leads HTTP/1.1",
        `host: ${base.host}`,
        "content-type: application/json",
        "content-length: 100",
        "x-request-id: left-early-1",
        "",
        '{"name": "Ja',
      ].join("\r\n"),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    let lines: LogLine[] = [];
    for (let attempt = 0; attempt < 50 && lines.length === 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      lines = written
        .map((text) => JSON.parse(text) as LogLine)
        .filter((line) => line.reqId === "left-early-1");
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: WARN,
      msg: "request",
      method: "POST",
      route: "/api/leads",
      aborted: true,
    });
    expect(lines[0]).not.toHaveProperty("status");
  });
});

describe("one access line per request, marketing site", () => {
  const lead = { name: "Jane Doe", email: "jane@example.com", company: "Acme", score: 420 };

  test("a stored lead: info, the route, no organization, none of the form", async ({ app }) => {
    const { status, line, text } = await accessLine(app.site, {
      method: "POST",
      url: "/api/leads",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(lead),
    });
    expect(status).toBe(201);
    expectAccessFields(line);
    expect(line).toMatchObject({ level: INFO, method: "POST", route: "/api/leads", status: 201 });
    expect(line).not.toHaveProperty("organizationId");
    expect(text).not.toContain("jane@example.com");
    expect(text).not.toContain("Jane Doe");
  });

  test("over real HTTP, keep-alive: one line for each request of the connection", async ({
    app,
  }) => {
    const base = await app.listen("site");
    const ids = ["kept-alive-1", "kept-alive-2"];
    for (const id of ids) {
      const response = await fetch(`${base}/api/health`, { headers: { "x-request-id": id } });
      expect(response.status).toBe(200);
      await response.text();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const id of ids) {
      const lines = written.filter((text) => text.includes(id)).map((text) => JSON.parse(text));
      expect(lines).toEqual([
        expect.objectContaining({ level: INFO, route: "/api/health", status: 200, reqId: id }),
      ]);
      expect(lines[0]).not.toHaveProperty("aborted");
    }
  });

  test("a body that is not JSON: info, one line", async ({ app }) => {
    const { status, line } = await accessLine(app.site, {
      method: "POST",
      url: "/api/leads",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(status).toBe(400);
    expect(line).toMatchObject({ level: INFO, route: "/api/leads", status: 400 });
  });

  test("an unknown path: info, the path without its query string", async ({ app }) => {
    const { status, line, text } = await accessLine(app.site, {
      method: "GET",
      url: "/contact?email=jane@example.com",
    });
    expect(status).toBe(404);
    expect(line).toMatchObject({ level: INFO, route: "/contact", status: 404 });
    expect(text).not.toContain("jane@example.com");
  });
});

describe("LOG_FORMAT=pretty", () => {
  // Colours depend on the terminal the tests run in; the text does not.
  const plain = (text: string) => stripVTControlCharacters(text);

  test("writes the access line as one readable line, its fields as the message", async ({
    pretty,
  }) => {
    const response = await pretty.site.inject({
      method: "POST",
      url: "/api/leads",
      headers: { "content-type": "application/json", "x-request-id": "pretty-lead-1" },
      payload: JSON.stringify({ name: "Jane Doe", email: "jane@example.com" }),
    });
    expect(response.statusCode).toBe(201);
    const lines = printed.map(plain).filter((text) => text.includes("pretty-lead-1"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: POST \/api\/leads 201 \d+(\.\d)? ms \{"reqId":"pretty-lead-1"\}\n$/,
    );
  });

  test("keeps the fields of other lines, and an error's stack below its line", async () => {
    const logger = createLogger("info", "pretty", terminal());
    logger.warn({ status: 503, route: "/elsewhere" }, "something else");
    logger.error({ err: new Error("broken") }, "it failed");
    const [warning, failure] = printed.slice(-2).map(plain);
    expect(warning).toMatch(/ WARN: something else \{"status":503,"route":"\/elsewhere"\}\n$/);
    expect(failure).toMatch(/ ERROR: it failed ?\n\s+err: \{/);
    expect(failure).toMatch(/Error: broken\n\s+at /);
  });
});
