import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";

type JournalEntry = { idx: number; when: number; tag: string };

const journal: { entries: JournalEntry[] } = JSON.parse(
  readFileSync(new URL("../../src/db/migrations/meta/_journal.json", import.meta.url), "utf8"),
);

// Drizzle runs only the migrations whose `when` is later than the last one a database recorded:
// one merged with an earlier time than a migration already applied would never run there.
// .ci/check-migrations.mjs checks the history; this checks the journal as it stands.
describe("migration journal", () => {
  test("numbers its entries in order, each with a later time than the one before", () => {
    const outOfOrder = journal.entries.flatMap((entry, position) => {
      const previous = journal.entries[position - 1];
      const problems: string[] = [];
      if (entry.idx !== position) problems.push(`${entry.tag}: idx ${entry.idx} at ${position}`);
      if (!entry.tag.startsWith(String(position).padStart(4, "0"))) {
        problems.push(`${entry.tag}: numbered unlike its place ${position}`);
      }
      if (previous && entry.when <= previous.when) {
        problems.push(`${entry.tag}: when ${entry.when} is not after ${previous.when}`);
      }
      return problems;
    });
    expect(journal.entries.length).toBeGreaterThan(20);
    expect(outOfOrder).toEqual([]);
  });
});
