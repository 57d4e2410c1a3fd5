import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { getTableColumns, sql, type Table } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { embeddedDatabaseTurns } from "./background-work.ts";
import { acquireDataDirLock } from "./data-dir-lock.ts";
import { type Channels, listenOnPostgres, type Subscription } from "./notifications.ts";
import { ensurePgliteCluster } from "./pglite-cluster.ts";
import { DEFAULT_PARSERS, DRIVER_PARSERS, driverClient } from "./pglite-parsers.ts";
import { preparedQuery } from "./pglite-prepared.ts";
import { prepareStatements } from "./prepared-statements.ts";
import * as schema from "./schema/index.ts";
import { SEARCH_SETTINGS_SQL, withSearchSettings } from "./search-settings.ts";

type Schema = typeof schema;
/** A database handle or a transaction: repositories accept either. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** What pg-boss needs to run its SQL through our connection. */
type SqlExecutor = {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
};

export type Database = {
  kind: "pglite" | "postgres";
  db: Db;
  /** For pg-boss on the embedded database; on PostgreSQL pg-boss opens its own pool. */
  jobExecutor?: SqlExecutor;
  connectionString?: string;
  /** True when the pgvector extension is installed (always on PGlite). */
  hasPgvector: boolean;
  /** No other process can open this database: PGlite in a DATA_DIR, which its lock file guards. */
  soleProcess: boolean;
  /** Embedded database only: a tarball of its data directory (backups, test snapshots). */
  dump?: () => Promise<Blob>;
  /** Receives the NOTIFYs of these channels (every process on the database receives them). */
  listen(channels: Channels): Promise<Subscription>;
  close(): Promise<void>;
};

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), "migrations");

export type OpenDatabaseOptions =
  | {
      kind: "pglite";
      dataDir: string | null;
      /** Start from a tarball made by `dump()` instead of an empty cluster (skips initdb). */
      snapshot?: Blob;
      /** PostgreSQL's page cache; default DEFAULT_PGLITE_SHARED_BUFFERS_MB. */
      sharedBuffersMb?: number;
    }
  | { kind: "postgres"; connectionString: string; poolSize?: number };

/** Opens the database, applies committed migrations, and reports its capabilities. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.kind === "pglite"
    ? openPglite(options.dataDir, options.snapshot, options.sharedBuffersMb)
    : openPostgres(options.connectionString, options.poolSize ?? 10);
}

/**
 * PGlite's initdb gives PostgreSQL 128 MB of shared buffers, and its WebAssembly runtime zeroes
 * shared memory when it allocates it, so all of it is resident from boot whatever the data's
 * size: 296 MB RSS for an opened cluster against 172 MB with 16 MB (docs/operations.md, _Memory
 * of the embedded database_). PGlite's own 128 MB stays the default until writes are measured
 * against the yardstick with less (docs/operations.md); PGLITE_SHARED_BUFFERS_MB lowers it.
 */
const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 128;

async function openPglite(
  dataDir: string | null,
  snapshot?: Blob,
  sharedBuffersMb = DEFAULT_PGLITE_SHARED_BUFFERS_MB,
): Promise<Database> {
  let releaseLock = () => {};
  let location = "memory://";
  if (dataDir !== null) {
    location = resolve(dataDir, "pglite");
    mkdirSync(location, { recursive: true });
    releaseLock = acquireDataDirLock(resolve(dataDir));
  }
  try {
    if (dataDir !== null && !snapshot) await ensurePgliteCluster(location);
    const client = await PGlite.create({
      dataDir: location,
      extensions: { vector },
      parsers: DRIVER_PARSERS,
      startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`],
      ...(snapshot ? { loadDataDir: snapshot } : {}),
    });
    await client.exec("create extension if not exists vector");
    await client.exec(SEARCH_SETTINGS_SQL);
    const take = embeddedDatabaseTurns();
    const prepared = preparedQuery(client);
    const db = drizzlePglite(driverClient(client, { take, prepared }) as unknown as PGlite, {
      schema,
    }) as unknown as Db;
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    return {
      kind: "pglite",
      db,
      hasPgvector: true,
      soleProcess: dataDir !== null,
      jobExecutor: {
        async executeSql(text, values) {
          // pg-boss reads dates as node-postgres gives them: Date objects.
          const options = { parsers: DEFAULT_PARSERS };
          if (values && values.length > 0) return take(() => prepared(text, values, options));
          // pg-boss sends multi-statement scripts without parameters (its own migrations).
          const results = await take(() => client.exec(text, options));
          return results.at(-1) ?? { rows: [] };
        },
      },
      dump: () => client.dumpDataDir("none"),
      // One session in this process: notifications cannot be missed while it is open.
      async listen(channels) {
        const unlisten = await Promise.all(
          Object.entries(channels).map(([channel, events]) =>
            client.listen(channel, events.onNotify),
          ),
        );
        for (const events of Object.values(channels)) events.onListening();
        return {
          async close() {
            if (!client.closed) await Promise.all(unlisten.map((stop) => stop()));
          },
        };
      },
      async close() {
        await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

async function openPostgres(connectionString: string, poolSize: number): Promise<Database> {
  await migratePostgres(connectionString);
  const pool = new pg.Pool({
    connectionString: withSearchSettings(connectionString),
    max: poolSize,
  });
  // An idle connection the server closes (restart, failover, a dropped database) must not crash
  // the process: the pool discards it and the next query opens a new one.
  pool.on("error", () => {});
  pool.on("connect", prepareStatements);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const installed = await db.execute(
    sql`select 1 from pg_extension where extname = 'vector' limit 1`,
  );
  return {
    kind: "postgres",
    db,
    connectionString,
    hasPgvector: rowsOf(installed).length > 0,
    soleProcess: false,
    listen: (channels) => listenOnPostgres(connectionString, channels),
    async close() {
      await pool.end();
    },
  };
}

// A server that drops packets would otherwise hold boot for the system's TCP timeout (minutes).
const CONNECT_TIMEOUT_MS = 10_000;

/** Migrates on one dedicated connection under an advisory lock, so parallel starts are safe. */
async function migratePostgres(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext('agentdesk.migrations'))");
    try {
      await client.query("create extension if not exists vector");
    } catch {
      // PostgreSQL without pgvector: the knowledge index falls back to exact scoring.
    }
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock(hashtext('agentdesk.migrations'))");
    await client.end();
  }
}

/**
 * A raw row of `table` (as `returning *` gives it, keyed by column name) in the shape drizzle's
 * own queries return: property names, and values through each column's driver mapping.
 */
export function tableRowOf<T extends Table>(
  table: T,
  raw: Record<string, unknown>,
): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}

/** Rows of a raw `db.execute` result, whichever driver produced it. */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
