import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { leads } from "../../src/db/schema/index.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true, env: { LEAD_RATE_LIMIT_PER_MINUTE: "1000" } });

const post = (app: TestApp, payload: unknown, headers: Record<string, string> = {}) =>
  app.site.inject({
    method: "POST",
    url: "/api/leads",
    headers: { "content-type": "application/json", ...headers },
    payload: JSON.stringify(payload),
    remoteAddress: "203.0.113.7",
  });

async function storedLead(app: TestApp, id: string) {
  const [row] = await app.database.db.select().from(leads).where(eq(leads.id, id));
  return row;
}

describe("POST /api/leads (happy path)", () => {
  test("stores every field of the Lead table and answers 201 {success, id}", async ({ app }) => {
    const lead = {
      name: "Jane Doe",
      email: "jane@example.com",
      phone: "+1 (555) 010-2030",
      source: "roi-calculator",
      postSlug: "ai-agents-for-support",
      company: "Acme",
      industry: "Retail",
      companySize: "11-50",
      area: "Support",
      hoursPerWeek: "10-20",
      aiToday: "ChatGPT for drafts",
      score: 420.5,
      levelLabel: "Explorer",
      recommendedAgent: "Support agent",
    };
    const response = await post(app, lead, { "user-agent": "Mozilla/5.0 test" });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({ success: true, id: expect.any(String) });

    const row = await storedLead(app, body.id);
    expect(row).toMatchObject({ ...lead, userAgent: "Mozilla/5.0 test" });
    expect(row?.ipHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.ipHash).not.toContain("203.0.113.7");
    expect(row?.createdAt).toBeInstanceOf(Date);
  });

  test("clamps score into 0..999", async ({ app }) => {
    const high = await post(app, { name: "A", email: "a@example.com", score: 5000 });
    const low = await post(app, { name: "B", email: "b@example.com", score: -3 });
    expect(high.statusCode).toBe(201);
    expect(low.statusCode).toBe(201);
    expect((await storedLead(app, high.json().id))?.score).toBe(999);
    expect((await storedLead(app, low.json().id))?.score).toBe(0);
  });

  test("accepts phones with 7 and 20 digits, treats empty optional fields as absent", async ({
    app,
  }) => {
    const seven = await post(app, { name: "C", email: "c@example.com", phone: "555-0102" });
    const twenty = await post(app, { name: "D", email: "d@example.com", phone: "1".repeat(20) });
    const empty = await post(app, { name: "E", email: "e@example.com", phone: "", company: "" });
    expect([seven.statusCode, twenty.statusCode, empty.statusCode]).toEqual([201, 201, 201]);
    expect(await storedLead(app, empty.json().id)).toMatchObject({ phone: null, company: null });
  });

  test("reads a JSON body sent as text/plain (forms that avoid the CORS preflight)", async ({
    app,
  }) => {
    const response = await app.site.inject({
      method: "POST",
      url: "/api/leads",
      headers: { "content-type": "text/plain" },
      payload: JSON.stringify({ name: "F", email: "f@example.com" }),
    });
    expect(response.statusCode).toBe(201);
  });

  test("hashes the same IP to the same value and different IPs differently", async ({ app }) => {
    const first = await post(app, { name: "G", email: "g@example.com" });
    const second = await post(app, { name: "H", email: "h@example.com" });
    const other = await app.site.inject({
      method: "POST",
      url: "/api/leads",
      headers: { "content-type": "application/json" },
      payload: { name: "I", email: "i@example.com" },
      remoteAddress: "198.51.100.9",
    });
    const [a, b, c] = await Promise.all(
      [first, second, other].map((response) => storedLead(app, response.json().id)),
    );
    expect(a?.ipHash).toBe(b?.ipHash);
    expect(a?.ipHash).not.toBe(c?.ipHash);
  });

  test("stores each of many simultaneous forms with its own fields (several to an INSERT)", async ({
    app,
  }) => {
    // More forms than one INSERT takes, all in flight at once: they are written in batches, and
    // every row must still hold the fields of the form that got its id.
    const forms = Array.from({ length: 75 }, (_, index) => ({
      name: `Batch ${index}`,
      email: `batch${index}@example.com`,
      company: index % 3 === 0 ? `Company ${index}` : undefined,
      score: index,
    }));
    const responses = await Promise.all(
      forms.map((form, index) => post(app, form, { "user-agent": `agent ${index}` })),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(forms.map(() => 201));
    const ids = responses.map((response) => response.json().id as string);
    expect(new Set(ids).size).toBe(forms.length);
    const rows = await Promise.all(ids.map((id) => storedLead(app, id)));
    rows.forEach((row, index) => {
      expect(row).toMatchObject({
        name: forms[index]!.name,
        email: forms[index]!.email,
        company: forms[index]!.company ?? null,
        score: index,
        userAgent: `agent ${index}`,
      });
    });
  });

  test("sends CORS headers only to allowed origins", async ({ app }) => {
    const corsApp = await startTestApp({
      env: { SITE_ALLOWED_ORIGINS: "https://www.example.com" },
      database: app.database,
    });
    try {
      const allowed = await corsApp.site.inject({
        method: "OPTIONS",
        url: "/api/leads",
        headers: {
          origin: "https://www.example.com",
          "access-control-request-method": "POST",
        },
      });
      expect(allowed.statusCode).toBe(204);
      expect(allowed.headers["access-control-allow-origin"]).toBe("https://www.example.com");
      const denied = await corsApp.site.inject({
        method: "POST",
        url: "/api/leads",
        headers: { origin: "https://evil.example", "content-type": "application/json" },
        payload: { name: "J", email: "j@example.com" },
      });
      expect(denied.headers["access-control-allow-origin"]).toBeUndefined();
    } finally {
      await corsApp.close();
    }
  });
});
