import { count } from "drizzle-orm";
import { describe, expect } from "vitest";
import { leads } from "../../src/db/schema/index.ts";
import { MAX_JSON_DEPTH } from "../../src/http/plugins/json-body.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true, env: { LEAD_RATE_LIMIT_PER_MINUTE: "10000" } });

const post = (app: TestApp, payload: string, contentType = "application/json") =>
  app.site.inject({
    method: "POST",
    url: "/api/leads",
    headers: { "content-type": contentType },
    payload,
  });

function expectEnvelope(body: unknown, code: string) {
  expect(body).toEqual({ error: expect.any(String), code, hint: expect.any(String) });
  const { error, hint } = body as { error: string; hint: string };
  expect(error.length).toBeGreaterThan(0);
  expect(hint.length).toBeGreaterThan(0);
}

async function leadCount(app: TestApp) {
  const [row] = await app.database.db.select({ total: count() }).from(leads);
  return row?.total ?? 0;
}

describe("POST /api/leads (bad input)", () => {
  test.for<[Record<string, unknown>, string]>([
    [{ email: "a@example.com" }, "name is required"],
    [{ name: "", email: "a@example.com" }, "name is required"],
    [{ name: "   ", email: "a@example.com" }, "name is required"],
    [{ name: null, email: "a@example.com" }, "name is required"],
    [{ name: "Ann" }, "email is required"],
    [{ name: "Ann", email: "" }, "email is required"],
    [{ name: "Ann", email: "not-an-email" }, "email is not a valid email address"],
    [{ name: "Ann", email: "ann@" }, "email is not a valid email address"],
  ])("%j → 400 validation_error '%s'", async ([payload, message], { app }) => {
    const response = await post(app, JSON.stringify(payload));
    expect(response.statusCode).toBe(400);
    expectEnvelope(response.json(), "validation_error");
    expect(response.json().error).toBe(message);
  });

  test("uses separate messages for a missing email and an invalid one", async ({ app }) => {
    const missing = (await post(app, JSON.stringify({ name: "A" }))).json().error;
    const invalid = (await post(app, JSON.stringify({ name: "A", email: "x" }))).json().error;
    expect(missing).not.toBe(invalid);
  });

  test.for<[string, number]>([
    ["name", 101],
    ["email", 255],
    ["phone", 31],
    ["source", 51],
    ["postSlug", 201],
    ["company", 151],
    ["industry", 61],
    ["companySize", 41],
    ["area", 61],
    ["hoursPerWeek", 41],
    ["aiToday", 81],
    ["levelLabel", 61],
    ["recommendedAgent", 151],
  ])("%s longer than its bound (%i chars) → 400", async ([field, length], { app }) => {
    const value = field === "email" ? `${"a".repeat(length - 12)}@example.com` : "1".repeat(length);
    const payload = { name: "Ann", email: "ann@example.com", [field]: value };
    const response = await post(app, JSON.stringify(payload));
    expect(response.statusCode).toBe(400);
    expectEnvelope(response.json(), "validation_error");
    expect(response.json().error).toContain(field);
  });

  test.for(["123456", "1".repeat(21), "call me maybe", "+1 (555) 01"])(
    "phone %j outside 7..20 digits → 400",
    async (phone, { app }) => {
      const response = await post(
        app,
        JSON.stringify({ name: "A", email: "a@example.com", phone }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe("phone must contain between 7 and 20 digits");
    },
  );

  test.for<[Record<string, unknown>, string]>([
    [{ name: 42, email: "a@example.com" }, "name must be a string"],
    [{ name: "A", email: ["a@example.com"] }, "email must be a string"],
    [{ name: "A", email: "a@example.com", score: "12" }, "score must be a number"],
    [{ name: "A", email: "a@example.com", company: { x: 1 } }, "company must be a string"],
  ])("wrong type %j → 400 '%s'", async ([payload, message], { app }) => {
    const response = await post(app, JSON.stringify(payload));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
  });

  test.for(['{"name": "A",', "not json", "", "[1,2", "{'name': 'A'}"])(
    "body %j → 400 invalid_json",
    async (payload, { app }) => {
      const response = await post(app, payload);
      expect(response.statusCode).toBe(400);
      expectEnvelope(response.json(), "invalid_json");
    },
  );

  test.for(["[]", "null", '"lead"', "42"])(
    "non-object JSON %s → 400 validation_error",
    async (p, { app }) => {
      const response = await post(app, p);
      expect(response.statusCode).toBe(400);
      expectEnvelope(response.json(), "validation_error");
    },
  );

  test("refuses a body over 16 KiB with 413", async ({ app }) => {
    const payload = JSON.stringify({ name: "A", email: "a@example.com", pad: "x".repeat(17_000) });
    const response = await post(app, payload);
    expect(response.statusCode).toBe(413);
    expectEnvelope(response.json(), "payload_too_large");
  });

  test.for(["GET", "PUT", "PATCH", "DELETE", "OPTIONS"] as const)(
    "%s /api/leads → 405 with Allow: POST",
    async (method, { app }) => {
      const response = await app.site.inject({ method, url: "/api/leads" });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe("POST");
      expectEnvelope(response.json(), "method_not_allowed");
    },
  );

  test.for([
    { name: "Nul\u0000Name", email: "a@example.com" },
    { name: "A", email: "a@example.com", company: "x\u0000" },
  ])(
    "a NUL character in %j → 400 validation_error, not a failed save",
    async (payload, { app }) => {
      const response = await post(app, JSON.stringify(payload));
      expect(response.statusCode).toBe(400);
      expectEnvelope(response.json(), "validation_error");
    },
  );

  describe(`nesting deeper than ${MAX_JSON_DEPTH} levels`, () => {
    const nested = (levels: number, inner = "1") =>
      `${'{"a":'.repeat(levels)}${inner}${"}".repeat(levels)}`;
    const lead = (extra: string) => `{"name":"Ann","email":"ann@example.com","extra":${extra}}`;
    const tooDeep = `The JSON body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`;

    test("accepts a form at the limit (the unknown field ignored) and refuses one level more", async ({
      app,
    }) => {
      expect((await post(app, lead(nested(MAX_JSON_DEPTH - 1)))).statusCode).toBe(201);
      const before = await leadCount(app);
      const response = await post(app, lead(nested(MAX_JSON_DEPTH)));
      expect(response.statusCode).toBe(400);
      expectEnvelope(response.json(), "validation_error");
      expect(response.json().error).toBe(tooDeep);
      expect(await leadCount(app)).toBe(before);
    });

    // 16 KiB holds at most about 8,000 levels; deeper bodies are refused for their size first.
    test.for<[string, string]>([
      ["objects", lead(nested(2_700))],
      ["arrays", `${"[".repeat(8_000)}${"]".repeat(8_000)}`],
      ["arrays around an escaped NUL", `${"[".repeat(8_000)}"\\u0000"${"]".repeat(8_000)}`],
      ["objects sent as text/plain", lead(nested(2_700))],
    ])("%s → 400 validation_error", async ([label, payload], { app }) => {
      const before = await leadCount(app);
      const response = await post(
        app,
        payload,
        label.includes("text/plain") ? "text/plain" : undefined,
      );
      expect(response.statusCode).toBe(400);
      expectEnvelope(response.json(), "validation_error");
      expect(response.json().error).toBe(tooDeep);
      expect(await leadCount(app)).toBe(before);
    });
  });

  test("stores nothing for any rejected request", async ({ app }) => {
    const before = await leadCount(app);
    await post(app, JSON.stringify({ name: "", email: "a@example.com" }));
    await post(app, "nope");
    expect(await leadCount(app)).toBe(before);
  });

  test("answers 500 internal_error when saving fails, without internals", async ({ app }) => {
    const failing = await startTestApp({ database: app.database });
    try {
      failing.runtime.services.leads.create = async () => {
        throw new Error("connection to 10.0.0.5:5432 refused");
      };
      const response = await failing.site.inject({
        method: "POST",
        url: "/api/leads",
        headers: { "content-type": "application/json" },
        payload: { name: "A", email: "a@example.com" },
      });
      expect(response.statusCode).toBe(500);
      expectEnvelope(response.json(), "internal_error");
      expect(response.body).not.toContain("10.0.0.5");
    } finally {
      await failing.close();
    }
  });
});
