import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../harness/app.ts";

const redisUrl = process.env.TEST_REDIS_URL;

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
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test("20 parallel POSTs from one IP give exactly 5 × 201 and 15 × 429", async () => {
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

  test("counts each IP separately", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, index) => postFrom(app, `198.19.0.${index + 1}`)),
    );
    expect(statuses.every((response) => response.statusCode === 201)).toBe(true);
  });

  test("ignores X-Forwarded-For unless TRUST_PROXY says so", async () => {
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
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { TRUST_PROXY: "1" } });
  });
  afterAll(() => app.close());

  test("limits by the client address the proxy reports", async () => {
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
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ env: { REDIS_URL: redisUrl! } });
    second = await startTestApp({ env: { REDIS_URL: redisUrl! }, database: first.database });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  test("two app instances see one limit: 20 parallel POSTs give 5 × 201 and 15 × 429", async () => {
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
