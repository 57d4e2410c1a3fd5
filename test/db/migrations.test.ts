import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, describe, expect, test } from "vitest";
import * as schema from "../../src/db/schema/index.ts";

const require = createRequire(import.meta.url);
const migrationsDir = new URL("../../src/db/migrations/", import.meta.url);

// drizzle-kit/api adds enumerable methods to Array.prototype and String.prototype when loaded.
// Test files share their worker (isolate: false), and pdf.js refuses to load where arrays
// enumerate a stray "random": whatever it added is taken away again once this file is done.
const prototypes = [Array.prototype, String.prototype] as unknown as Array<Record<string, unknown>>;
const ownKeys = prototypes.map((prototype) => new Set(Object.keys(prototype)));
afterAll(() => {
  prototypes.forEach((prototype, index) => {
    for (const key of Object.keys(prototype)) {
      if (!ownKeys[index]!.has(key)) delete prototype[key];
    }
  });
});

describe("committed migrations", () => {
  test("match the drizzle schema exactly (no change left to generate)", async () => {
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

  test("are listed in the journal in order", () => {
    const journal = JSON.parse(readFileSync(new URL("meta/_journal.json", migrationsDir), "utf8"));
    const files = readdirSync(migrationsDir)
      .filter((file) => file.endsWith(".sql"))
      .sort();
    expect(journal.entries.map((entry: { tag: string }) => `${entry.tag}.sql`)).toEqual(files);
  });
});
