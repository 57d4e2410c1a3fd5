import { randomInt } from "node:crypto";
import { describe, expect } from "vitest";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { annotationClient, annotationTest, createSeeder } from "./seed.ts";

const redisUrl = process.env.TEST_REDIS_URL;
const LIMIT = "3";

const test = annotationTest({
  orgName: "Public reviews",
  env: { ANNOTATION_ANONYMOUS_RATE_LIMIT_PER_MINUTE: LIMIT },
})
  // Two API instances on one database, sharing Redis, for the shared limit.
  .extend("first", { scope: "file" }, async ({ env }, { onCleanup }) => {
    const first = await startTestApp({ env: { REDIS_URL: redisUrl!, ...env } });
    onCleanup(() => first.close());
    return first;
  })
  .extend("second", { scope: "file" }, async ({ env, first }, { onCleanup }) => {
    const second = await startTestApp({
      env: { REDIS_URL: redisUrl!, ...env },
      database: first.database,
    });
    onCleanup(() => second.close());
    return second;
  });

/** A random documentation-range address per test, so runs sharing one Redis never collide. */
const randomIp = () => `198.18.${randomInt(0, 255)}.${randomInt(1, 254)}`;

/** An answer of a public agent of `org`, which anyone may annotate. */
async function publicMessage(app: TestApp, org: TestOrganization) {
  const seed = createSeeder(app);
  const agentId = await seed.agent(org, { visibility: "public" });
  return (await seed.exchange(org, agentId)).agentMessageId;
}

const countStatuses = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

describe("anonymous annotation rate limit (in memory)", () => {
  let messageId: string;
  test.beforeAll(async ({ app, org }) => {
    messageId = await publicMessage(app, org);
  });

  const body = () => ({ messageId, sentiment: "good", comment: "anonymous" });

  test("lets the configured number through per IP and answers 429 RATE_LIMITED after", async ({
    client,
  }) => {
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: 7 }, () => client.create(body(), undefined, ip)),
    );
    expect(countStatuses(responses.map((response) => response.status))).toEqual({
      200: 3,
      429: 4,
    });
    const limited = responses.find((response) => response.status === 429)!;
    expect(limited.body).toEqual({
      error: expect.any(String),
      type: "RATE_LIMITED",
      requestId: expect.any(String),
    });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });

  test("counts each IP separately and never limits keyed requests", async ({ org, client }) => {
    const ip = randomIp();
    for (let index = 0; index < 3; index += 1) {
      expect((await client.create(body(), undefined, ip)).status).toBe(200);
    }
    expect((await client.create(body(), undefined, ip)).status).toBe(429);
    const keyed = await Promise.all(
      Array.from({ length: 6 }, () => client.create(body(), org, ip)),
    );
    expect(keyed.every((response) => response.status === 200)).toBe(true);
    expect((await client.create(body(), undefined, randomIp())).status).toBe(200);
  });

  test("limits only creation: anonymous listing is not counted", async ({ app, client }) => {
    const ip = randomIp();
    for (let index = 0; index < 5; index += 1) {
      const listed = await app.client().request({
        method: "GET",
        url: `/api/annotations?messageId=${messageId}`,
        remoteAddress: ip,
      });
      expect(listed.status).toBe(200);
    }
    expect((await client.create(body(), undefined, ip)).status).toBe(200);
  });

  test("rejects a bad value of the setting at boot, naming it", async () => {
    await expect(
      startTestApp({ env: { ANNOTATION_ANONYMOUS_RATE_LIMIT_PER_MINUTE: "0" } }),
    ).rejects.toThrow(/ANNOTATION_ANONYMOUS_RATE_LIMIT_PER_MINUTE/);
  });
});

describe.skipIf(!redisUrl)("anonymous annotation rate limit shared through Redis", () => {
  let messageId: string;
  test.beforeAll(async ({ first }) => {
    messageId = await publicMessage(first, await first.createOrganization("Public reviews"));
  });

  test("two API instances share one limit per IP", async ({ first, second }) => {
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        annotationClient(index % 2 ? first : second).create(
          { messageId, sentiment: "bad", comment: "shared" },
          undefined,
          ip,
        ),
      ),
    );
    expect(countStatuses(responses.map((response) => response.status))).toEqual({
      200: 3,
      429: 5,
    });
  });
});
