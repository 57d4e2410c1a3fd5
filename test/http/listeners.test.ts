import { describe, expect } from "vitest";
import { appTest } from "../harness/fixtures.ts";

type OpenApi = { openapi: string; info: { version: string }; paths: Record<string, unknown> };

const test = appTest({ offline: true });

describe("both listeners over real HTTP", () => {
  test.for(["api", "site"] as const)(
    "%s: GET /api/health → 200 {status: ok}",
    async (which, { app }) => {
      const base = await app.listen(which);
      const response = await fetch(`${base}/api/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
    },
  );

  test.for([
    ["GET", "/api/unknown"],
    ["POST", "/api/agents-nope/x"],
    ["DELETE", "/api/leads/123"],
    ["PUT", "/nothing-here"],
  ] as const)("dashboard: %s %s → JSON 404 NOT_FOUND", async ([method, path], { app }) => {
    const base = await app.listen("api");
    const response = await fetch(`${base}${path}`, { method });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      error: expect.any(String),
      type: "NOT_FOUND",
      requestId: expect.any(String),
    });
  });

  test.for([
    ["GET", "/api/unknown"],
    ["POST", "/api/contact"],
    ["PATCH", "/api/leads/abc"],
    ["GET", "/"],
  ] as const)("site: %s %s → JSON 404 not_found", async ([method, path], { app }) => {
    const base = await app.listen("site");
    const response = await fetch(`${base}${path}`, { method });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      error: expect.any(String),
      code: "not_found",
      hint: expect.any(String),
    });
  });

  test("serves an OpenAPI 3.1 document and a docs page on both listeners", async ({ app }) => {
    for (const which of ["api", "site"] as const) {
      const base = await app.listen(which);
      const document = (await (await fetch(`${base}/api/openapi.json`)).json()) as OpenApi;
      expect(document.openapi).toBe("3.1.0");
      const docs = await fetch(`${base}/api/docs`);
      expect(docs.status).toBe(200);
      expect(docs.headers.get("content-type")).toMatch(/text\/html/);
    }
    const site = (await (
      await fetch(`${await app.listen("site")}/api/openapi.json`)
    ).json()) as OpenApi;
    expect(site.info.version).toBe("1.0.0");
    expect(Object.keys(site.paths)).toContain("/api/leads");
  });

  test("echoes a safe X-Request-Id and replaces an unsafe one", async ({ app }) => {
    const base = await app.listen("api");
    const kept = await fetch(`${base}/api/nope`, { headers: { "x-request-id": "trace-123" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-123");
    expect(((await kept.json()) as { requestId: string }).requestId).toBe("trace-123");
    const replaced = await fetch(`${base}/api/nope`, {
      headers: { "x-request-id": "<script>alert(1)</script>" },
    });
    expect(replaced.headers.get("x-request-id")).not.toContain("<");
  });

  test("answers a malformed JSON body on the dashboard API with 400 INVALID_REQUEST", async ({
    app,
  }) => {
    const base = await app.listen("api");
    const response = await fetch(`${base}/api/admin/organizations`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer test-admin-token" },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { type: string }).type).toBe("INVALID_REQUEST");
  });

  test.for([
    ["/api/me/%zz", 400],
    ["/api/me?x=%00", 400],
    [`/api/admin/organizations/${"x".repeat(300)}/credits`, 414],
  ] as const)(
    "dashboard: malformed URL %s → %i in the JSON envelope",
    async ([path, status], { app }) => {
      const base = await app.listen("api");
      const response = await fetch(`${base}${path}`, {
        method: path.includes("credits") ? "POST" : "GET",
        headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
        body: path.includes("credits") ? JSON.stringify({ amount: 1 }) : undefined,
      });
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({
        error: expect.any(String),
        type: "INVALID_REQUEST",
        requestId: expect.any(String),
      });
    },
  );

  test("dashboard: a NUL character in a JSON body is a 400, not a database error", async ({
    app,
  }) => {
    const base = await app.listen("api");
    const response = await fetch(`${base}/api/admin/organizations`, {
      method: "POST",
      headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
      body: JSON.stringify({ name: "Nul\u0000Corp" }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { type: string }).type).toBe("INVALID_REQUEST");
  });

  test("site: a malformed URL is a JSON 404", async ({ app }) => {
    const base = await app.listen("site");
    const response = await fetch(`${base}/api/%zz`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { code: string }).code).toBe("not_found");
  });
});
