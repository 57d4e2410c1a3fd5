import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { type Db, rowsOf } from "../../src/db/client.ts";
import {
  executePart,
  executeParts,
  isRejectedByDatabase,
  type StatementPart,
} from "../../src/db/statement-parts.ts";
import { databaseTest } from "../harness/fixtures.ts";

const test = databaseTest();
test.beforeAll(async ({ database }) => {
  await database.db.execute(sql`create table part_notes (id text primary key, note text)`);
});

/** Inserts a note; reads its id back, or null when the insert wrote nothing. */
const notePart = (name: string, id: string, note: string): StatementPart<string | null> => ({
  ctes: sql`${sql.identifier(name)} as (
    insert into part_notes (id, note) values (${id}, ${note})
    on conflict (id) do nothing
    returning id)`,
  row: sql`select id as ${sql.identifier(`${name}_id`)} from ${sql.identifier(name)}`,
  read: (row) => (row?.[`${name}_id`] as string | undefined) ?? null,
});

const notes = async (db: Db) =>
  rowsOf<{ id: string }>(await db.execute(sql`select id from part_notes order by id`)).map(
    (row) => row.id,
  );

describe("statement parts", () => {
  test("runs one part as its own statement", async ({ database }) => {
    expect(await executePart(database.db, notePart("single", "alone", "x"))).toBe("alone");
    expect(await notes(database.db)).toContain("alone");
  });

  test("runs two parts as one statement, each reading its own row, one of them empty", async ({
    database,
  }) => {
    const [first, second] = await executeParts(
      database.db,
      notePart("first", "both-1", "x"),
      notePart("second", "alone", "already there"),
    );
    expect(first).toBe("both-1");
    expect(second).toBeNull();
    expect(await notes(database.db)).toEqual(["alone", "both-1"]);
  });

  test("writes neither part when the database refuses one, and says it refused", async ({
    database,
  }) => {
    const refused: StatementPart<null> = {
      ctes: sql`refused as (select (1 / 0)::text as id)`,
      row: sql`select id as refused_id from refused`,
      read: () => null,
    };
    const error = await executeParts(
      database.db,
      notePart("kept", "never-written", "x"),
      refused,
    ).catch((caught: unknown) => caught);

    expect(isRejectedByDatabase(error)).toBe(true);
    expect(await notes(database.db)).not.toContain("never-written");
  });

  test("does not call a failure that never reached the database a refusal", () => {
    const lost = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    expect(isRejectedByDatabase(lost)).toBe(false);
    expect(isRejectedByDatabase(new Error("wrapped", { cause: lost }))).toBe(false);
    expect(isRejectedByDatabase("not an error")).toBe(false);
  });
});
