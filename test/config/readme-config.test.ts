import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { envSchema } from "../../src/config/index.ts";

type Row = { names: string[]; defaults: string[] };

/** The rows of the README's configuration table: backticked names, then each one's default. */
function documentedRows(): Row[] {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const start = readme.indexOf("\n## Configuration\n");
  expect(start, "README.md has a ## Configuration section").toBeGreaterThan(0);
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const rows = section.split("\n").filter((line) => line.startsWith("|"));
  // The header and its separator, then one row per variable (or group of variables).
  expect(rows.slice(0, 2)).toEqual(["| Variable | Default | Meaning |", "|---|---|---|"]);
  return rows.slice(2).map((line) => {
    const [, names = "", defaults = ""] = line.split("|");
    return {
      names: [...names.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]!),
      defaults: defaults.split(/,\s+/).map((part) => part.trim()),
    };
  });
}

/** The source files under src/, relative to it. */
function sourceFiles(): string[] {
  return readdirSync(new URL("../../src/", import.meta.url), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .sort();
}

/** What the schema gives when the variable is not set, as the README would spell it. */
function codeDefault(name: string): string | null {
  const field = envSchema.shape[name as keyof typeof envSchema.shape];
  if (!field) return null; // Not read at all: the test above names it.
  const value: unknown = field.parse(undefined);
  if (value === undefined) return "–";
  if (["string", "number", "boolean"].includes(typeof value)) return `\`${String(value)}\``;
  // Parsed into something else (a list, a table of limits): the README describes it in words.
  return null;
}

describe("README configuration table", () => {
  const read = Object.keys(envSchema.shape);

  test("names at least one variable in each row, and each variable once", () => {
    const rows = documentedRows();
    expect(rows.filter((row) => row.names.length === 0)).toEqual([]);
    const documented = rows.flatMap((row) => row.names);
    expect(documented.filter((name, index) => documented.indexOf(name) !== index)).toEqual([]);
  });

  test("lists every variable the configuration reads", () => {
    const documented = new Set(documentedRows().flatMap((row) => row.names));
    expect(read.filter((name) => !documented.has(name))).toEqual([]);
  });

  test("lists no variable the configuration does not read", () => {
    const documented = documentedRows().flatMap((row) => row.names);
    expect(documented.filter((name) => !read.includes(name))).toEqual([]);
  });

  test("has every variable read through the configuration schema (src/config/)", () => {
    // src/main.ts hands process.env to parseConfig; any other reader would escape this table.
    const readers = sourceFiles().filter((file) =>
      readFileSync(new URL(`../../src/${file}`, import.meta.url), "utf8")
        .split("\n")
        .some((line) => /\bprocess\.env\b/.test(line) && !/^\s*(\/\/|\*)/.test(line)),
    );
    expect(readers).toEqual(["main.ts"]);
  });

  test("gives the default the code uses, for each variable whose default it spells out", () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const row of documentedRows()) {
      // One default for several variables ("–" for a group of keys), or one per variable.
      const defaults =
        row.defaults.length === 1 ? row.names.map(() => row.defaults[0]!) : row.defaults;
      if (defaults.length !== row.names.length) continue;
      for (const [index, name] of row.names.entries()) {
        const documented = defaults[index]!;
        if (documented !== "–" && !/^`[^`]*`$/.test(documented)) continue;
        const expected = codeDefault(name);
        if (expected === null) continue;
        checked += 1;
        if (documented !== expected)
          mismatches.push(`${name}: README ${documented}, code ${expected}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });
});
