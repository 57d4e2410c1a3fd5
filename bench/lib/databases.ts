import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../../src/db/client.ts";

export type BenchDatabase = { label: string; database: Database; dispose(): Promise<void> };

/**
 * The databases a benchmark runs on: an in-memory PGlite always, and a fresh database on the
 * PostgreSQL server of BENCH_DATABASE_URL (or TEST_DATABASE_URL) when one is configured.
 */
export async function* benchDatabases(): AsyncGenerator<BenchDatabase> {
  const pglite = await openDatabase({ kind: "pglite", dataDir: null });
  yield { label: "pglite", database: pglite, dispose: () => pglite.close() };

  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    process.stdout.write("(set BENCH_DATABASE_URL or TEST_DATABASE_URL to include PostgreSQL)\n");
    return;
  }
  yield await freshPostgres(serverUrl);
}

/**
 * A new, migrated database on the PostgreSQL server of `serverUrl`, dropped by `dispose`: the
 * server's own databases (the tests' `test`) are left alone. `url` reaches it from other processes.
 */
export async function freshPostgres(serverUrl: string): Promise<BenchDatabase & { url: string }> {
  const name = `agentdesk_bench_${randomBytes(4).toString("hex")}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const postgres = await openDatabase({
    kind: "postgres",
    connectionString: url.toString(),
    poolSize: 20,
  });
  return {
    label: postgres.hasPgvector ? "postgres" : "postgres (no pgvector)",
    database: postgres,
    url: url.toString(),
    async dispose() {
      await postgres.close();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
