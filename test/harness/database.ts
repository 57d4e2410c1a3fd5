import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";

const migrationsDir = fileURLToPath(new URL("../../src/db/migrations/", import.meta.url));

/** Which database this vitest project runs against (see vitest.config.ts). */
export const testDatabaseKind = process.env.AGENTDESK_TEST_DB?.startsWith("postgres")
  ? "postgres"
  : "pglite";

/**
 * True in the project that runs a focused set of files on a PostgreSQL database where pgvector
 * cannot be installed: the service's exact-scoring fallback.
 */
export const withoutPgvector = process.env.AGENTDESK_TEST_DB === "postgres-without-pgvector";

/**
 * Owns the databases of the project without pgvector. pgvector is not a trusted extension, so
 * a role that is not a superuser cannot create it: the service then falls back, as it does on a
 * managed PostgreSQL whose application role may not install extensions.
 */
const NO_PGVECTOR_ROLE = "agentdesk_test_no_pgvector";

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database on the
 * PostgreSQL server of TEST_DATABASE_URL that is dropped when the file is done. That server must
 * have pgvector, except in the project without it, whose databases are owned by a role that
 * cannot install it.
 */
export async function createTestDatabase(): Promise<Database> {
  if (testDatabaseKind === "pglite") {
    const snapshot = new Blob([readFileSync(inject("pgliteSnapshot"))]);
    return openDatabase({ kind: "pglite", dataDir: null, snapshot });
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is required for the postgres project");
  const name = `agentdesk_test_${randomBytes(6).toString("hex")}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await withAdminClient(adminUrl, async (client) => {
    if (!withoutPgvector) {
      await client.query(`create database ${name}`);
      return;
    }
    // Concurrent files may race to create the role: the loser's error is the same as "exists".
    await client.query(`do $$ begin create role ${NO_PGVECTOR_ROLE} login;
      exception when duplicate_object or unique_violation then null; end $$`);
    await client.query(`create database ${name} owner ${NO_PGVECTOR_ROLE}`);
    url.username = NO_PGVECTOR_ROLE;
    url.password = "";
  });
  const database = await openDatabase({
    kind: "postgres",
    connectionString: url.toString(),
    poolSize: 20,
  });
  if (database.hasPgvector === withoutPgvector) {
    await database.close();
    await withAdminClient(adminUrl, (client) =>
      client.query(`drop database if exists ${name} with (force)`),
    );
    throw new Error(
      withoutPgvector
        ? `${NO_PGVECTOR_ROLE} could install pgvector: it must not be a superuser`
        : "The PostgreSQL server of TEST_DATABASE_URL has no pgvector (README: PostgreSQL)",
    );
  }
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

/**
 * A fresh database that was migrated up to `lastMigration` (a journal tag), filled by `seed` with
 * rows of that schema, then opened as the service opens it: the later migrations run on that data.
 */
export async function createTestDatabaseFromMigration(
  lastMigration: string,
  seed: (execute: (statement: string) => Promise<unknown>) => Promise<void>,
): Promise<Database> {
  const folder = migrationsUpTo(lastMigration);
  try {
    if (testDatabaseKind === "pglite") {
      const client = await PGlite.create({ extensions: { vector } });
      await client.exec("create extension if not exists vector");
      await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
      await seed((statement) => client.exec(statement));
      const snapshot = await client.dumpDataDir("none");
      await client.close();
      return await openDatabase({ kind: "pglite", dataDir: null, snapshot });
    }
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error("TEST_DATABASE_URL is required for the postgres project");
    const name = `agentdesk_test_${randomBytes(6).toString("hex")}`;
    await withAdminClient(adminUrl, (client) => client.query(`create database ${name}`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await withAdminClient(url.toString(), async (client) => {
      try {
        await client.query("create extension if not exists vector");
      } catch {
        // PostgreSQL without pgvector, as the service allows.
      }
      await migratePg(drizzlePg(client), { migrationsFolder: folder });
      await seed((statement) => client.query(statement));
    });
    const database = await openDatabase({ kind: "postgres", connectionString: url.toString() });
    return {
      ...database,
      async close() {
        await database.close();
        await withAdminClient(adminUrl, (client) =>
          client.query(`drop database if exists ${name} with (force)`),
        );
      },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A temporary migrations folder with the committed migrations up to `lastMigration`. */
function migrationsUpTo(lastMigration: string): string {
  const journal = JSON.parse(readFileSync(join(migrationsDir, "meta/_journal.json"), "utf8"));
  const tags: string[] = journal.entries.map((entry: { tag: string }) => entry.tag);
  const last = tags.indexOf(lastMigration);
  if (last < 0) throw new Error(`no migration ${lastMigration}`);
  const folder = mkdtempSync(join(tmpdir(), "agentdesk-migrations-"));
  mkdirSync(join(folder, "meta"));
  const entries = journal.entries.slice(0, last + 1);
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const tag of tags.slice(0, last + 1)) {
    copyFileSync(join(migrationsDir, `${tag}.sql`), join(folder, `${tag}.sql`));
  }
  return folder;
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
