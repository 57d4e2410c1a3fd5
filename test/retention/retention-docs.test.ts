import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { KEPT_EVENT_METADATA } from "../../src/domain/retention/retention-repo.ts";
import { jobCatalog } from "../../src/jobs/job-catalog.ts";
import { databaseTest } from "../harness/fixtures.ts";

/**
 * docs/retention.md against the code: the table of where a conversation's data lives names every
 * table that holds a conversation, message or contact reference (a new one must say what erasure
 * does to it), the metadata keys the ledger keeps are the code's, and the schedule is the job's.
 */

const markdown = readFileSync(new URL("../../docs/retention.md", import.meta.url), "utf8");
/** The first cells of the table under "What is stored where": `table` names in backticks. */
const documentedTables = (() => {
  const start = markdown.indexOf("## What is stored where");
  const section = markdown.slice(start, markdown.indexOf("\n## ", start + 1));
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`(\w+)`/g)].map((m) => m[1]!));
})();

const test = databaseTest();

describe("docs/retention.md", () => {
  test("says what erasure does to every table that references a conversation, message or contact", async ({
    database,
  }) => {
    const referencing = rowsOf<{ table: string }>(
      await database.db.execute(
        sql`select distinct table_name as table from information_schema.columns
            where table_schema = 'public'
              and column_name in ('conversation_id', 'message_id', 'contact_id', 'delivery_id')
            order by table_name`,
      ),
    ).map((row) => row.table);
    expect(referencing.length).toBeGreaterThanOrEqual(6);
    const missing = [...referencing, "conversations", "contacts"].filter(
      (table) => !documentedTables.includes(table),
    );
    expect(missing).toEqual([]);
  });

  test("names the metadata keys the ledger keeps and the sweep's schedule", () => {
    const kept = markdown.match(/metadata reduced to ([^:]+):/)?.[1] ?? "";
    expect([...kept.matchAll(/`(\w+)`/g)].map((match) => match[1])).toEqual(KEPT_EVENT_METADATA);
    expect(markdown).toContain(`cron \`${jobCatalog["retention.sweep"].schedule}\``);
  });
});
