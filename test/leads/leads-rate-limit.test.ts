import { randomInt } from "node:crypto";
import { describe, expect } from "vitest";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * `app` keeps its limit in memory; `proxied` is another app that trusts one proxy; `shared` is
 * two instances on one database and one Redis. Each starts the first time a test asks for it.
 */
const test = appTest({ offline: true })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("proxied", { scope: "file" }, async ({}, { onCleanup }) => {
    const proxied = await startTestApp({ env: { TRUST_PROXY: "1" } });
    onCleanup(() => proxied.close());
    return proxied;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("shared", { scope: "file" }, async ({}, { onCleanup }) => {
    const first = await startTestApp({ env: { REDIS_URL: redisUrl! } });
    const second = await startTestApp({ env: { REDIS_URL: redisUrl! }, database: first.database });
    onCleanup(async () => {
      await second.close();
      await first.close();
    });
    return { first, second };
  });

/** A random documentation-range address per test, so runs sharing one Redis never collide. */
const randomIp = () => `198.18.${randomInt(0, 255)}.${randomInt(1, 254)}`;

const postFrom = (app: TestApp, ip: string, headers: Record<string, string> = {}) =>
  app.site.inject({
    method: "POST",
    url: "/api/leads",
    headers: { "content-type": "application/json", ...headers },
    payload: { name: "Rate", email: "rate@example.com" },
    remoteAddress: ip,
  });

function statusCounts(statuses: number[]) {
  return {
    created: statuses.filter((status) => status === 201).length,
    limited: statuses.filter((status) => status === 429).length,
  };
}

describe("lead rate limit (in memory)", () => {
  test("20 parallel POSTs from one IP give exactly 5 × 201 and 15 × 429", async ({ app }) => {
    const ip = randomIp();
    const responses = await Promise.all(Array.from({ length: 20 }, () => postFrom(app, ip)));
    expect(statusCounts(responses.map((response) => response.statusCode))).toEqual({
      created: 5,
      limited: 15,
    });
    const limited = responses.find((response) => response.statusCode === 429)!;
    expect(limited.json()).toEqual({
      error: expect.any(String),
      code: "rate_limited",
      hint: expect.any(String),
    });
  });

  test("counts each IP separately", async ({ app }) => {
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, index) => postFrom(app, `198.19.0.${index + 1}`)),
    );
    expect(statuses.every((response) => response.statusCode === 201)).toBe(true);
  });

  test("ignores X-Forwarded-For unless TRUST_PROXY says so", async ({ app }) => {
    const ip = randomIp();
    const spoofed = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        postFrom(app, ip, { "x-forwarded-for": `192.0.2.${index + 1}` }),
      ),
    );
    expect(statusCounts(spoofed.map((response) => response.statusCode)).limited).toBe(1);
  });
});

describe("lead rate limit behind one trusted proxy", () => {
  test("limits by the client address the proxy reports", async ({ proxied: app }) => {
    const proxy = randomIp();
    const clientA = await Promise.all(
      Array.from({ length: 6 }, () => postFrom(app, proxy, { "x-forwarded-for": "192.0.2.10" })),
    );
    const clientB = await postFrom(app, proxy, { "x-forwarded-for": "192.0.2.11" });
    expect(statusCounts(clientA.map((response) => response.statusCode))).toEqual({
      created: 5,
      limited: 1,
    });
    expect(clientB.statusCode).toBe(201);
  });
});

describe.skipIf(!redisUrl)("lead rate limit shared through Redis", () => {
  test("two app instances see one limit: 20 parallel POSTs give 5 × 201 and 15 × 429", async ({
    shared: { first, second },
  }) => {
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => postFrom(index % 2 ? first : second, ip)),
    );
    expect(statusCounts(responses.map((response) => response.statusCode))).toEqual({
      created: 5,
      limited: 15,
    });
  });
});
