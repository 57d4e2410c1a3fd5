import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";

let app: TestApp;
let org: TestOrganization;
beforeAll(async () => {
  app = await startTestApp();
  org = await app.createOrganization("Keyholder");
});
afterAll(() => app.close());

const me = (authorization?: string) =>
  app.client(authorization === undefined ? {} : { authorization }).account.me();

describe("API key authentication", () => {
  test("accepts the right key and builds the request context", async () => {
    const response = await me(`Bearer ${org.apiKey}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      organization: { id: org.id, name: "Keyholder" },
      userId: org.userId,
      apiKeyId: org.apiKeyId,
    });
    expect(response.headers["x-request-id"]).toEqual(expect.any(String));
  });

  test("records when a key was last used, to the minute", async () => {
    const issued = await app.admin.admin.issueApiKey(org.id);
    const { apiKey, apiKeyId } = issued.body;
    const lastUsed = async () => {
      const [row] = rowsOf<{ last_used_at: Date | string | null }>(
        await app.database.db.execute(
          sql`select last_used_at from api_keys where id = ${apiKeyId}`,
        ),
      );
      return row!.last_used_at === null ? null : new Date(row!.last_used_at).getTime();
    };
    expect(await lastUsed()).toBeNull();
    expect((await me(`Bearer ${apiKey}`)).status).toBe(200);
    await vi.waitFor(async () => expect(await lastUsed()).not.toBeNull());
    const first = await lastUsed();

    expect((await me(`Bearer ${apiKey}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUsed()).toBe(first);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 60_000 });
    try {
      expect((await me(`Bearer ${apiKey}`)).status).toBe(200);
      await vi.waitFor(async () => expect(await lastUsed()).toBeGreaterThan(first!));
    } finally {
      vi.useRealTimers();
    }
  });

  test("accepts the scheme in any case", async () => {
    expect((await me(`bearer ${org.apiKey}`)).status).toBe(200);
  });

  test.each([
    ["missing", undefined],
    ["empty", ""],
    ["no scheme", "RAW_KEY"],
    ["wrong key", "Bearer adk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["not our format", "Bearer sk-123"],
    ["basic auth", "Basic dXNlcjpwYXNz"],
  ])("refuses a %s key with 401 UNAUTHORIZED", async (_label, authorization) => {
    const response = await me(authorization === "RAW_KEY" ? org.apiKey : authorization);
    expect(response.status).toBe(401);
    expect(response.error).toEqual({
      error: expect.any(String),
      type: "UNAUTHORIZED",
      requestId: expect.any(String),
    });
  });

  test("refuses a revoked key while other keys keep working", async () => {
    const second = await app.admin.admin.issueApiKey(org.id);
    const { apiKey, apiKeyId } = second.body;
    expect((await me(`Bearer ${apiKey}`)).status).toBe(200);

    const revoked = await app.admin.admin.revokeApiKey(org.id, apiKeyId);
    expect(revoked.status).toBe(204);
    expect((await me(`Bearer ${apiKey}`)).status).toBe(401);
    expect((await me(`Bearer ${org.apiKey}`)).status).toBe(200);

    const again = await app.admin.admin.revokeApiKey(org.id, apiKeyId);
    expect(again.status).toBe(404);
  });

  test("cannot revoke a key through another organization", async () => {
    const other = await app.createOrganization("Other");
    const response = await app.admin.admin.revokeApiKey(other.id, org.apiKeyId);
    expect(response.status).toBe(404);
    expect((await me(`Bearer ${org.apiKey}`)).status).toBe(200);
  });
});
