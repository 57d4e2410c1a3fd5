import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema/index.ts";

const require = createRequire(import.meta.url);
const migrationsDir = new URL("../../src/db/migrations/", import.meta.url);

describe("committed migrations", () => {
  it("match the drizzle schema exactly (no change left to generate)", async () => {
    const { generateDrizzleJson, generateMigration } = require("drizzle-kit/api");
    const snapshots = readdirSync(new URL("meta/", migrationsDir))
      .filter((file) => file.endsWith("_snapshot.json"))
      .sort();
    const latest = JSON.parse(
      readFileSync(new URL(`meta/${snapshots.at(-1)}`, migrationsDir), "utf8"),
    );
    const current = generateDrizzleJson(schema, latest.id);
    const pending: string[] = await generateMigration(latest, current);
    expect(pending).toEqual([]);
  });

  it("are listed in the journal in order", () => {
    const journal = JSON.parse(readFileSync(new URL("meta/_journal.json", migrationsDir), "utf8"));
    const files = readdirSync(migrationsDir)
      .filter((file) => file.endsWith(".sql"))
      .sort();
    expect(journal.entries.map((entry: { tag: string }) => `${entry.tag}.sql`)).toEqual(files);
  });
});
