import { PGlite } from "@electric-sql/pglite";
import { describe, expect } from "vitest";
import { embeddedDatabaseTurns } from "../../src/db/background-work.ts";
import { openDatabase } from "../../src/db/client.ts";
import { DRIVER_PARSERS, driverClient } from "../../src/db/pglite-parsers.ts";
import { preparedQuery } from "../../src/db/pglite-prepared.ts";
import { leads } from "../../src/db/schema/index.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { databaseTest } from "../harness/fixtures.ts";

// drizzle passes its own parsers with every PGlite query; the instance has them instead, and
// each of the instance's users must still read values as it did. (Embedded database only: the
// PostgreSQL projects would only run the same again.)

const test = databaseTest(() => openDatabase({ kind: "pglite", dataDir: null })).extend(
  "client",
  { scope: "file" },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  async ({}, { onCleanup }) => {
    const client = await PGlite.create({ parsers: DRIVER_PARSERS });
    onCleanup(() => client.close());
    return client;
  },
);

describe.skipIf(testDatabaseKind !== "pglite")("PGlite parsers", () => {
  const seen: unknown[] = [];

  test.beforeAll(({ client }) => {
    const query = client.query.bind(client);
    client.query = ((text: string, params?: unknown[], options?: unknown) => {
      seen.push(options);
      return query(text, params, options as never);
    }) as typeof client.query;
  });

  test("leaves drizzle's overrides out of each query and reads the same text", async ({
    client,
  }) => {
    const facade = driverClient(client, {
      take: embeddedDatabaseTurns(),
      prepared: preparedQuery(client),
    });
    seen.length = 0;
    const drizzleOptions = { rowMode: "array", parsers: { ...DRIVER_PARSERS } };
    const result = (await facade.query(
      "select '2026-01-02 03:04:05+00'::timestamptz as at",
      [],
      drizzleOptions,
    )) as { rows: unknown[][] };
    expect(result.rows[0]![0]).toBe("2026-01-02 03:04:05+00");
    expect(seen).toEqual([{ rowMode: "array" }]);
  });

  test("keeps a query's parsers when one of them is not the instance's own", async ({ client }) => {
    const facade = driverClient(client, {
      take: embeddedDatabaseTurns(),
      prepared: preparedQuery(client),
    });
    seen.length = 0;
    const options = { parsers: { 23: (value: string) => Number(value) * 10 } };
    const result = (await facade.query("select 4::int4 as n", [], options)) as {
      rows: { n: number }[];
    };
    expect(result.rows[0]!.n).toBe(40);
    expect(seen).toEqual([options]);
  });

  test("wraps the queries of a transaction the same way", async ({ client }) => {
    const facade = driverClient(client, {
      take: embeddedDatabaseTurns(),
      prepared: preparedQuery(client),
    });
    seen.length = 0;
    const value = await facade.transaction(async (tx) => {
      const result = (await tx.query("select now()::date as day", [], {
        parsers: { ...DRIVER_PARSERS },
      })) as { rows: { day: unknown }[] };
      return result.rows[0]!.day;
    });
    expect(typeof value).toBe("string");
  });
});

describe.skipIf(testDatabaseKind !== "pglite")("the embedded database's users", () => {
  // Migrated from scratch under a hook's time limit rather than the first test's.
  test.beforeAll(({ database }) => {
    void database;
  });

  test("gives drizzle its own mapping of dates", async ({ database }) => {
    await database.db.insert(leads).values({ id: "lead-1", name: "Jane", email: "j@example.com" });
    const [row] = await database.db.select().from(leads);
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(Number.isNaN(row!.createdAt.getTime())).toBe(false);
  });

  test("gives the job queue dates as node-postgres does", async ({ database }) => {
    const withValues = await database.jobExecutor!.executeSql("select $1::timestamptz as at", [
      "2026-01-02T03:04:05Z",
    ]);
    expect(withValues.rows[0]).toEqual({ at: new Date("2026-01-02T03:04:05Z") });
    const script = await database.jobExecutor!.executeSql(
      "select 1; select '2026-01-02 03:04:05+00'::timestamptz as at",
    );
    expect(script.rows[0]).toEqual({ at: new Date("2026-01-02T03:04:05Z") });
  });
});
