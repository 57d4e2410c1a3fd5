import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { organizations } from "../../src/db/schema/index.ts";
import type { TestApp } from "../harness/app.ts";
import type { Query } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { IMPOSSIBLE_CURSORS } from "../harness/page-cursors.ts";

const test = appTest({ offline: true });

type Summary = { id: string; name: string };

async function allOrganizations(
  app: TestApp,
  query: Query = {},
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const response = await app.admin.admin.listOrganizations({ ...query, cursor });
    expect(response.status).toBe(200);
    ids.push(...response.body.data.map((organization: Summary) => organization.id));
    cursor = response.body.nextCursor ?? undefined;
    pages += 1;
  } while (cursor);
  return { ids, pages };
}

describe("GET /api/admin/organizations", () => {
  test("lists organizations newest first with their billing fields", async ({ app }) => {
    const first = await app.createOrganization("Older", { plan: "pro", billingModel: "legacy" });
    const second = await app.createOrganization("Newer");
    const response = await app.admin.admin.listOrganizations({ limit: 2 });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        id: second.id,
        name: "Newer",
        billingModel: "credits",
        plan: "free",
        subscriptionStatus: "none",
        queryLimit: null,
        conversationRetentionDays: null,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
      expect.objectContaining({ id: first.id, name: "Older", plan: "pro", billingModel: "legacy" }),
    ]);
  });

  test("shows each organization's conversation retention", async ({ app }) => {
    const kept = await app.createOrganization("Keeps a month");
    const set = await app.admin.admin.updateOrganization(kept.id, {
      conversationRetentionDays: 30,
    });
    expect(set.status).toBe(200);
    const response = await app.admin.admin.listOrganizations({ limit: 1 });
    expect(response.body.data).toEqual([
      expect.objectContaining({ id: kept.id, conversationRetentionDays: 30 }),
    ]);
  });

  test("pages through all of them without duplicates or gaps, also on equal times", async ({
    app,
  }) => {
    for (let index = 0; index < 7; index++) await app.createOrganization(`Paged ${index}`);
    // Three share one creation time, to the microsecond: the id breaks the tie.
    await app.database.db.execute(
      sql`update ${organizations} set created_at = '2024-01-01 00:00:00.000001+00'
          where ${organizations.name} in ('Paged 1', 'Paged 2', 'Paged 3')`,
    );
    const stored = await app.database.db
      .select({ id: organizations.id })
      .from(organizations)
      .orderBy(sql`${organizations.createdAt} desc, ${organizations.id} desc`);
    const { ids, pages } = await allOrganizations(app, { limit: 2 });
    expect(ids).toEqual(stored.map((row) => row.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBe(Math.ceil(stored.length / 2));
  });

  test.for<[string, Query, string]>([
    ["limit 0", { limit: 0 }, "querystring.limit"],
    ["limit 1001", { limit: 1001 }, "querystring.limit"],
    ["a limit that is not a number", { limit: "all" }, "querystring.limit"],
    ["a cursor it never returned", { cursor: "garbage!" }, "querystring.cursor"],
    [
      "a cursor without an id",
      { cursor: Buffer.from("2024-01-01 00:00:00+00|").toString("base64url") },
      "querystring.cursor",
    ],
    ...IMPOSSIBLE_CURSORS.map(([name, cursor]): [string, Query, string] => [
      name,
      { cursor },
      "querystring.cursor",
    ]),
  ])("answers %s with 400 naming the parameter", async ([, query, path], { app }) => {
    const response = await app.admin.admin.listOrganizations(query);
    expect(response.status).toBe(400);
    expect(response.error.type).toBe("INVALID_REQUEST");
    expect(response.error.details?.map((detail) => detail.path)).toContain(path);
  });
});

describe("GET /api/admin/organizations/{id}/api-keys", () => {
  test("lists the organization's keys newest first with prefixes, never the hash or the key", async ({
    app,
  }) => {
    const org = await app.createOrganization("Keyed");
    const other = await app.createOrganization("Other keys");
    const second = await app.admin.admin.issueApiKey(org.id, { name: "ci" });
    expect((await app.admin.admin.revokeApiKey(org.id, org.apiKeyId)).status).toBe(204);

    const response = await app.admin.admin.listApiKeys(org.id);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        id: second.body.apiKeyId,
        name: "ci",
        keyPrefix: second.body.apiKey.slice(0, 10),
        createdAt: expect.any(String),
        lastUsedAt: null,
        revokedAt: null,
      },
      {
        id: org.apiKeyId,
        name: "default",
        keyPrefix: org.apiKey.slice(0, 10),
        createdAt: expect.any(String),
        lastUsedAt: null,
        revokedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    ]);
    expect(response.text).not.toContain(second.body.apiKey);
    expect(response.text).not.toContain("keyHash");
    expect(response.text).not.toContain(other.apiKeyId);
  });

  test("answers 404 for an unknown organization and 400 for an id too long", async ({ app }) => {
    const unknown = await app.admin.admin.listApiKeys("doesnotexist");
    expect(unknown.status).toBe(404);
    expect(unknown.error.type).toBe("NOT_FOUND");
    expect((await app.admin.admin.listApiKeys("x".repeat(65))).status).toBe(400);
  });
});

describe("access to the organization lists", () => {
  test("refuses callers without the admin token with 401, an organization's key included", async ({
    app,
  }) => {
    const org = await app.createOrganization("Curious");
    for (const headers of [
      {},
      { authorization: "Bearer wrong-token" },
      { authorization: `Bearer ${org.apiKey}` },
    ]) {
      for (const url of [
        "/api/admin/organizations",
        `/api/admin/organizations/${org.id}/api-keys`,
      ]) {
        const response = await app.client(headers).request({ method: "GET", url });
        expect(response.status).toBe(401);
        expect(response.text).not.toContain(org.apiKeyId);
      }
    }
  });
});
