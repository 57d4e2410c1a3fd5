import { count } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect } from "vitest";
import { leads } from "../../src/db/schema/index.ts";
import { appTest } from "../harness/fixtures.ts";
import { deepJson } from "../http/hostile-bodies.ts";

const test = appTest({ offline: true, env: { LEAD_RATE_LIMIT_PER_MINUTE: "1000000" } });

const FIELDS = [
  "name",
  "email",
  "phone",
  "source",
  "postSlug",
  "company",
  "score",
  "__proto__",
  "constructor",
  "prototype",
  "hoursPerWeek",
];

/** Any JSON value, including deep nesting, unicode and huge strings. */
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.string({ unit: "binary" }),
    fc.constantFrom("\u0000", "a\u0000b", "\ud800", "🦄\u0000"),
    fc.string({ minLength: 5_000, maxLength: 20_000 }),
    fc.emailAddress(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...FIELDS, "x", "🦄"), tie("value"), { maxKeys: 5 }),
  ),
})).value;

const leadLike = fc.dictionary(fc.constantFrom(...FIELDS), anyJson, { maxKeys: 8 });
// Arrays and objects, with brackets and escapes in their keys and leaves; past the 16 KiB cap
// the deepest are refused for their size.
const deepNesting = deepJson({ min: 50, max: 3_000 }).map(({ text }) => text);

describe("POST /api/leads never fails on hostile input", () => {
  test("answers only 201, 400, 413 or 429 and leaves stored leads untouched", async ({ app }) => {
    const seeded = await app.site.inject({
      method: "POST",
      url: "/api/leads",
      headers: { "content-type": "application/json" },
      payload: { name: "Seed", email: "seed@example.com" },
    });
    const seedId = seeded.json().id;
    const [snapshot] = await app.database.db.select().from(leads);

    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          leadLike.map((value) => JSON.stringify(value)),
          anyJson.map((value) => JSON.stringify(value) ?? "null"),
          deepNesting,
          fc.string(),
        ),
        async (payload) => {
          const before = await app.database.db.select({ total: count() }).from(leads);
          const response = await app.site.inject({
            method: "POST",
            url: "/api/leads",
            headers: { "content-type": "application/json" },
            payload,
          });
          expect([201, 400, 413, 429]).toContain(response.statusCode);
          const body = response.json();
          if (response.statusCode === 201) {
            expect(body).toEqual({ success: true, id: expect.any(String) });
          } else {
            expect(Object.keys(body).sort()).toEqual(["code", "error", "hint"]);
            const after = await app.database.db.select({ total: count() }).from(leads);
            expect(after).toEqual(before);
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { numRuns: 150 },
    );

    const [again] = await app.database.db.select().from(leads).limit(1);
    expect(again?.id).toBe(seedId);
    expect(again).toEqual(snapshot);
  });
});
