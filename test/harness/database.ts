import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";

/** Which database this vitest project runs against (see vitest.config.ts). */
export const testDatabaseKind =
  process.env.AGENTDESK_TEST_DB === "postgres" ? "postgres" : "pglite";

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database on the
 * PostgreSQL server of TEST_DATABASE_URL that is dropped when the file is done.
 */
export async function createTestDatabase(): Promise<Database> {
  if (testDatabaseKind === "pglite") {
    const snapshot = new Blob([readFileSync(inject("pgliteSnapshot"))]);
    return openDatabase({ kind: "pglite", dataDir: null, snapshot });
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is required for the postgres project");
  const name = `agentdesk_test_${randomBytes(6).toString("hex")}`;
  await withAdminClient(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({
    kind: "postgres",
    connectionString: url.toString(),
    poolSize: 20,
  });
  return {
    ...database,
    async close() {
      await database.close();
      await withAdminClient(adminUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

async function withAdminClient<T>(url: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
