import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { envSchema } from "../../src/config/index.ts";

type Row = { names: string[]; defaults: string[] };

/** The rows of the README's configuration table: backticked names, then each one's default. */
function documentedRows(): Row[] {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.slice(
    readme.indexOf("## Configuration"),
    readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1),
  );
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [, names = "", defaults = ""] = line.split("|");
      return {
        names: [...names.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]!),
        defaults: defaults.split(/,\s+/).map((part) => part.trim()),
      };
    });
}

/** What the schema gives when the variable is not set, as the README would spell it. */
function codeDefault(name: string): string | null {
  const field = envSchema.shape[name as keyof typeof envSchema.shape];
  const value: unknown = field.parse(undefined);
  if (value === undefined) return "–";
  if (["string", "number", "boolean"].includes(typeof value)) return `\`${String(value)}\``;
  // Parsed into something else (a list, a table of limits): the README describes it in words.
  return null;
}

describe("README configuration table", () => {
  it("lists every variable the configuration reads, and nothing else", () => {
    const documented = documentedRows().flatMap((row) => row.names);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  it("gives the default the code uses, for each variable whose default it spells out", () => {
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
