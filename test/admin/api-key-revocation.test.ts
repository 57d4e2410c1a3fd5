import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, vi } from "vitest";
import { type Database, rowsOf } from "../../src/db/client.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { appTest } from "../harness/fixtures.ts";

// Each API process keeps the keys it verified for up to a minute; these tests wait far less, so
// they pass only when the change itself reaches the process.
const NOTICED_WITHIN = { timeout: 5_000, interval: 50 };

const test = appTest({ offline: true }).extend(
  "second",
  { scope: "file" },
  async ({ app }, { onCleanup }) => {
    // A second API process on the same database.
    const second = await startTestApp({ database: app.database, role: "api" });
    onCleanup(() => second.close());
    return second;
  },
);

const statusWith = (app: TestApp, apiKey: string) =>
  app
    .client({ authorization: `Bearer ${apiKey}` })
    .account.me()
    .then((reply) => reply.status);

async function newKey(first: TestApp, organizationId: string) {
  const response = await first.admin.admin.issueApiKey(organizationId);
  return response.body as { apiKey: string; apiKeyId: string };
}

/** Uses the key on both processes, so both have verified (and kept) it. */
async function verifiedEverywhere(first: TestApp, second: TestApp, apiKey: string) {
  expect(await statusWith(first, apiKey)).toBe(200);
  expect(await statusWith(second, apiKey)).toBe(200);
  expect(await statusWith(second, apiKey)).toBe(200);
}

/** From another database: a session cannot change this setting of its own database. */
async function allowConnections(database: Database, allowed: boolean) {
  const name = new URL(database.connectionString!).pathname.slice(1);
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      `alter database ${client.escapeIdentifier(name)} with allow_connections ${allowed}`,
    );
  } finally {
    await client.end();
  }
}

/** Waits until each app refuses the key, well within the minute a kept key could live. */
async function refusedBy(apps: TestApp[], apiKey: string) {
  for (const app of apps) {
    await vi.waitFor(async () => expect(await statusWith(app, apiKey)).toBe(401), NOTICED_WITHIN);
  }
}

const revokeInSql = (first: TestApp, apiKeyId: string) =>
  first.database.db.execute(sql`update api_keys set revoked_at = now() where id = ${apiKeyId}`);

describe("revoking a key that processes have verified", () => {
  test("is refused at once by the process that revoked it and promptly by the other", async ({
    app: first,
    second,
  }) => {
    const org = await first.createOrganization("Revoked in the API");
    const { apiKey, apiKeyId } = await newKey(first, org.id);
    await verifiedEverywhere(first, second, apiKey);

    const revoked = await first.admin.admin.revokeApiKey(org.id, apiKeyId);
    expect(revoked.status).toBe(204);
    expect(await statusWith(first, apiKey)).toBe(401);
    await refusedBy([second], apiKey);
    expect(await statusWith(second, org.apiKey)).toBe(200);
  });

  test("is refused when an operator revokes it in SQL", async ({ app: first, second }) => {
    const org = await first.createOrganization("Revoked in SQL");
    await verifiedEverywhere(first, second, org.apiKey);
    await revokeInSql(first, org.apiKeyId);
    await refusedBy([first, second], org.apiKey);
  });

  test("is refused once its organization is deleted", async ({ app: first, second }) => {
    const org = await first.createOrganization("Deleted");
    await verifiedEverywhere(first, second, org.apiKey);
    await first.database.db.execute(sql`delete from organizations where id = ${org.id}`);
    await refusedBy([first, second], org.apiKey);
  });

  test("keeps a verified key without reading it again (the database trigger is what revokes it)", async ({
    app: first,
    second,
  }) => {
    const org = await first.createOrganization("Kept");
    await verifiedEverywhere(first, second, org.apiKey);
    await first.database.db.execute(sql`alter table api_keys disable trigger api_keys_changed`);
    try {
      await revokeInSql(first, org.apiKeyId);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await statusWith(second, org.apiKey)).toBe(200);
    } finally {
      await first.database.db.execute(sql`alter table api_keys enable trigger api_keys_changed`);
    }
    // Any later change to the key is announced again.
    await revokeInSql(first, org.apiKeyId);
    await refusedBy([second], org.apiKey);
  });

  test.runIf(testDatabaseKind === "postgres")(
    "forgets every kept key when the listening connection is lost, and listens again",
    async ({ app: first, second }) => {
      const listeners = async () =>
        rowsOf<{ pid: number }>(
          await first.database.db.execute(
            sql`select pid from pg_stat_activity
                where datname = current_database() and query like 'listen %'`,
          ),
        ).map((row) => row.pid);
      await vi.waitFor(async () => expect(await listeners()).toHaveLength(2), NOTICED_WITHIN);

      const org = await first.createOrganization("Lost connection");
      await verifiedEverywhere(first, second, org.apiKey);
      const before = await listeners();
      // The listeners cannot come back until connections are allowed again (pooled ones stay).
      await allowConnections(first.database, false);
      try {
        await first.database.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity
              where datname = current_database() and query like 'listen %'`,
        );
        // Revoked while nobody listens: no process is told, so neither may trust what it kept.
        await revokeInSql(first, org.apiKeyId);
        await refusedBy([first, second], org.apiKey);
      } finally {
        await allowConnections(first.database, true);
      }

      await vi.waitFor(async () => {
        const after = await listeners();
        expect(after).toHaveLength(2);
        expect(after.some((pid) => before.includes(pid))).toBe(false);
      }, NOTICED_WITHIN);
      const { apiKey, apiKeyId } = await newKey(first, org.id);
      await verifiedEverywhere(first, second, apiKey);
      await revokeInSql(first, apiKeyId);
      await refusedBy([second], apiKey);
    },
  );
});
