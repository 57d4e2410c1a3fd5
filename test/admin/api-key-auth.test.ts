import { sql } from "drizzle-orm";
import { describe, expect, vi } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import type { TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true, orgName: "Keyholder", funded: false });

const me = (app: TestApp, authorization?: string) =>
  app.client(authorization === undefined ? {} : { authorization }).account.me();

describe("API key authentication", () => {
  test("accepts the right key and builds the request context", async ({ app, org }) => {
    const response = await me(app, `Bearer ${org.apiKey}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      organization: { id: org.id, name: "Keyholder" },
      userId: org.userId,
      apiKeyId: org.apiKeyId,
    });
    expect(response.headers["x-request-id"]).toEqual(expect.any(String));
  });

  test("records when a key was last used, to the minute", async ({ app, org }) => {
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
    expect((await me(app, `Bearer ${apiKey}`)).status).toBe(200);
    await vi.waitFor(async () => expect(await lastUsed()).not.toBeNull());
    const first = await lastUsed();

    expect((await me(app, `Bearer ${apiKey}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUsed()).toBe(first);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 60_000 });
    try {
      expect((await me(app, `Bearer ${apiKey}`)).status).toBe(200);
      await vi.waitFor(async () => expect(await lastUsed()).toBeGreaterThan(first!));
    } finally {
      vi.useRealTimers();
    }
  });

  test("accepts the scheme in any case", async ({ app, org }) => {
    expect((await me(app, `bearer ${org.apiKey}`)).status).toBe(200);
  });

  test.for([
    ["missing", undefined],
    ["empty", ""],
    ["no scheme", "RAW_KEY"],
    ["wrong key", "Bearer adk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["not our format", "Bearer sk-123"],
    ["basic auth", "Basic dXNlcjpwYXNz"],
  ])("refuses a %s key with 401 UNAUTHORIZED", async ([, authorization], { app, org }) => {
    const response = await me(app, authorization === "RAW_KEY" ? org.apiKey : authorization);
    expect(response.status).toBe(401);
    expect(response.error).toEqual({
      error: expect.any(String),
      type: "UNAUTHORIZED",
      requestId: expect.any(String),
    });
  });

  test("refuses a revoked key while other keys keep working", async ({ app, org }) => {
    const second = await app.admin.admin.issueApiKey(org.id);
    const { apiKey, apiKeyId } = second.body;
    expect((await me(app, `Bearer ${apiKey}`)).status).toBe(200);

    const revoked = await app.admin.admin.revokeApiKey(org.id, apiKeyId);
    expect(revoked.status).toBe(204);
    expect((await me(app, `Bearer ${apiKey}`)).status).toBe(401);
    expect((await me(app, `Bearer ${org.apiKey}`)).status).toBe(200);

    const again = await app.admin.admin.revokeApiKey(org.id, apiKeyId);
    expect(again.status).toBe(404);
  });

  test("cannot revoke a key through another organization", async ({ app, org }) => {
    const other = await app.createOrganization("Other");
    const response = await app.admin.admin.revokeApiKey(other.id, org.apiKeyId);
    expect(response.status).toBe(404);
    expect((await me(app, `Bearer ${org.apiKey}`)).status).toBe(200);
  });
});
