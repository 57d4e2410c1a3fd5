import { describe, expect } from "vitest";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { appTest } from "../harness/fixtures.ts";

// Two API instances on one database, as behind a load balancer: with Redis (PostgreSQL runs,
// TEST_REDIS_URL) a key's limit holds across both; without Redis each counts on its own, so
// the PGlite run uses one instance.
const redisUrl = process.env.TEST_REDIS_URL;
const shared = testDatabaseKind === "postgres" && redisUrl !== undefined;

const test = appTest({
  offline: true,
  env: shared ? { REDIS_URL: redisUrl! } : {},
  orgName: "Limited",
  funded: false,
})
  .extend("second", { scope: "file" }, async ({ app, env }, { onCleanup }) => {
    if (!shared) return undefined;
    const second = await startTestApp({ env, database: app.database, role: "api" });
    onCleanup(() => second.close());
    return second;
  })
  .extend("owner", { scope: "file" }, ({ app, org }) => memberOf(app, org, "owner"));

async function limitedKey(
  { app, owner }: { app: TestApp; owner: SignedIn },
  rateLimitPerMinute: number,
): Promise<string> {
  const created = await app.api.inject({
    method: "POST",
    url: "/api/api-keys",
    headers: owner.headers,
    payload: { name: `limit ${rateLimitPerMinute}`, rateLimitPerMinute },
  });
  expect(created.statusCode).toBe(201);
  return created.json().key;
}

const me = (app: TestApp, headers: Record<string, string>) =>
  app.api.inject({ method: "GET", url: "/api/me", headers });

describe("a key's rate limit", () => {
  test(`accepts exactly 60 of 200 parallel requests${shared ? " across two instances" : ""}`, async ({
    app: first,
    second,
    owner,
  }) => {
    const key = await limitedKey({ app: first, owner }, 60);
    const apps = second ? [first, second] : [first];
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        me(apps[index % apps.length]!, { authorization: `Bearer ${key}` }),
      ),
    );

    const accepted = outcomes.filter((outcome) => outcome.statusCode === 200);
    expect(accepted).toHaveLength(60);
    for (const outcome of accepted) {
      expect(outcome.headers["ratelimit-limit"]).toBe("60");
      expect(Number(outcome.headers["ratelimit-remaining"])).toBeLessThan(60);
    }
    for (const refused of outcomes.filter((outcome) => outcome.statusCode !== 200)) {
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json().type).toBe("RATE_LIMITED");
      expect(refused.json().error).toContain("60 requests a minute");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
      expect(refused.headers["ratelimit-remaining"]).toBe("0");
      expect(refused.headers["ratelimit-reset"]).toBe(refused.headers["retry-after"]);
    }
  }, 60_000);

  test("counts each key apart and leaves sessions and unlimited keys alone", async ({
    app: first,
    org,
    owner,
  }) => {
    const key = await limitedKey({ app: first, owner }, 2);
    const other = await limitedKey({ app: first, owner }, 2);
    const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
    expect((await me(first, bearer(key))).headers["ratelimit-remaining"]).toBe("1");
    expect((await me(first, bearer(key))).statusCode).toBe(200);
    expect((await me(first, bearer(key))).statusCode).toBe(429);
    expect((await me(first, bearer(other))).statusCode).toBe(200);
    for (let request = 0; request < 5; request += 1) {
      const asOwner = await me(first, owner.headers);
      expect(asOwner.statusCode).toBe(200);
      expect(asOwner.headers["ratelimit-limit"]).toBeUndefined();
      expect((await me(first, org.auth)).statusCode).toBe(200);
    }
  });
});
