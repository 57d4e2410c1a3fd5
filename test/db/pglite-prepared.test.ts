import { PGlite } from "@electric-sql/pglite";
import { test as base, describe, expect } from "vitest";
import { DRIVER_PARSERS } from "../../src/db/pglite-parsers.ts";
import { preparedQuery } from "../../src/db/pglite-prepared.ts";
import { PLAN_PER_VALUE } from "../../src/db/prepared-statements.ts";
import { testDatabaseKind } from "../harness/database.ts";

// The embedded database runs parameterised statements as named prepared statements of its one
// session. (Embedded database only: PostgreSQL connections have their own, prepareStatements.)

const test = base
  .extend(
    "client",
    { scope: "file" },
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
    async ({}, { onCleanup }) => {
      const client = await PGlite.create({ parsers: DRIVER_PARSERS });
      onCleanup(() => client.close());
      return client;
    },
  )
  .extend("query", { scope: "file" }, ({ client }) => preparedQuery(client));

describe.skipIf(testDatabaseKind !== "pglite")("PGlite prepared statements", () => {
  const preparedTexts = async (client: PGlite) =>
    (
      await client.query<{ statement: string }>("select statement from pg_prepared_statements")
    ).rows.map((row) => row.statement);

  test.beforeAll(async ({ client }) => {
    await client.exec(`create table items (id int primary key, label text, data jsonb,
      at timestamptz default '2026-01-02 03:04:05+00')`);
  });

  test("answers as PGlite's own query does, parsers and row mode included", async ({
    client,
    query,
  }) => {
    const insert = "insert into items (id, label, data) values ($1, $2, $3) returning *";
    const ours = await query(insert, [1, "one", { tags: ["a"] }]);
    const theirs = await client.query(insert, [2, "two", { tags: ["a"] }]);
    expect(ours.rows).toEqual([
      { id: 1, label: "one", data: { tags: ["a"] }, at: "2026-01-02 03:04:05+00" },
    ]);
    expect({ ...ours, rows: undefined }).toEqual({ ...theirs, rows: undefined });

    const select = "select id, label, data from items where id = $1 or label = $2 order by id";
    const asArrays = await query(select, [1, null], { rowMode: "array" });
    expect(asArrays.rows).toEqual([[1, "one", { tags: ["a"] }]]);
    const parsed = await query<{ id: number }>(select, [2, "none"], {
      parsers: { 23: (value: string) => Number(value) * 10 },
    });
    expect(parsed.rows.map((row) => row.id)).toEqual([20]);
  });

  test("prepares each text once and leaves statements without parameters alone", async ({
    client,
    query,
  }) => {
    const text = "select count(*)::int as n from items where id > $1";
    for (const after of [0, 1, 2]) await query(text, [after]);
    await query("select count(*) from items", []);
    await query(`select ${PLAN_PER_VALUE} count(*) from items where id > $1`, [0]);
    const texts = await preparedTexts(client);
    expect(texts.filter((statement) => statement === text)).toHaveLength(1);
    expect(texts.some((statement) => statement.includes(PLAN_PER_VALUE))).toBe(false);
    expect(texts).not.toContain("select count(*) from items");
  });

  test("reports the database's errors and goes on working after them", async ({ query }) => {
    const insert = "insert into items (id, label) values ($1, $2)";
    await query(insert, [10, "ten"]);
    await expect(query(insert, [10, "again"])).rejects.toMatchObject({
      code: "23505",
      severity: "ERROR",
    });
    await expect(query("select $1::int as n", ["not a number"])).rejects.toMatchObject({
      code: "22P02",
    });
    await expect(query("select * from no_such_table where id = $1", [1])).rejects.toMatchObject({
      code: "42P01",
    });
    const after = await query<{ label: string }>("select label from items where id = $1", [10]);
    expect(after.rows).toEqual([{ label: "ten" }]);
  });

  test("prepares a transaction's statements too, which outlive its rollback", async ({
    client,
    query,
  }) => {
    const insert = "insert into items (id, label) values ($1, $2)";
    const count = "select count(*)::int as n from items where id >= $1";
    await expect(
      client.transaction(async (tx) => {
        const inTransaction = query.inTransaction(tx);
        await inTransaction(insert, [30, "thirty"]);
        expect((await inTransaction(count, [30])).rows).toEqual([{ n: 1 }]);
        await inTransaction(insert, [30, "again"]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect(await preparedTexts(client)).toEqual(expect.arrayContaining([insert, count]));
    expect((await query(count, [30])).rows).toEqual([{ n: 0 }]);

    await client.transaction(async (tx) => {
      await query.inTransaction(tx)(insert, [31, "thirty-one"]);
    });
    expect((await query(count, [30])).rows).toEqual([{ n: 1 }]);
  });

  test("waits for a transaction in progress instead of running inside it", async ({
    client,
    query,
  }) => {
    let insideTransaction!: () => void;
    const inserted = new Promise<void>((resolve) => {
      insideTransaction = resolve;
    });
    let finishTransaction!: () => void;
    const finish = new Promise<void>((resolve) => {
      finishTransaction = resolve;
    });
    const transaction = client
      .transaction(async (tx) => {
        await tx.query("insert into items (id, label) values (20, 'uncommitted')");
        insideTransaction();
        await finish;
        throw new Error("roll back");
      })
      .catch(() => undefined);
    await inserted;
    const count = query<{ n: number }>("select count(*)::int as n from items where id = $1", [20]);
    finishTransaction();
    await transaction;
    expect((await count).rows).toEqual([{ n: 0 }]);
  });
});
