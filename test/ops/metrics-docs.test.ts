import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/ops/metrics.ts";

/** The rows of docs/operations.md's metric table: name, type and labels. */
function documentedMetrics() {
  const text = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
  const start = text.indexOf("| metric | type | labels | meaning |");
  expect(start, "docs/operations.md has the metric table").toBeGreaterThan(0);
  const rows = text.slice(start).split("\n\n")[0]!.split("\n").slice(2);
  return rows.map((row) => {
    const [, name = "", type = "", labels = ""] = row.split("|").map((cell) => cell.trim());
    return {
      name: name.replaceAll("`", ""),
      type,
      labels: [...labels.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!).sort(),
    };
  });
}

describe("docs/operations.md", () => {
  it("lists every metric of the service with its type and labels, and no other", async () => {
    const metrics = createMetrics();
    const registered = (await metrics.registry.getMetricsAsJSON())
      .filter((metric) => !/^(process|nodejs)_/.test(metric.name))
      .map((metric) => {
        const names = metric.values.flatMap((value) => Object.keys(value.labels));
        return {
          name: metric.name,
          type: String(metric.type),
          labels: [...new Set(names)].filter((label) => label !== "le").sort(),
        };
      });
    const documented = documentedMetrics();
    expect(documented.map((row) => row.name).sort()).toEqual(
      registered.map((metric) => metric.name).sort(),
    );
    for (const metric of registered) {
      const row = documented.find((candidate) => candidate.name === metric.name)!;
      expect(row.type, metric.name).toBe(metric.type);
      // A metric without series yet shows no labels; those with series must match the table.
      if (metric.labels.length > 0) expect(row.labels, metric.name).toEqual(metric.labels);
    }
  });
});
