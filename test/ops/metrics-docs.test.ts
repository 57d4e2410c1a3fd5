import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
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
  test("lists every metric of the service with its type and labels, and no other", async () => {
    const metrics = createMetrics();
    // One observation of each, so that every metric shows its labels.
    metrics.httpRequest("GET", "/api/health", 200, 0.001);
    metrics.modelCall({
      provider: "openai",
      model: "gpt_4o_mini",
      seconds: 1,
      ok: true,
      inputTokens: 10,
      outputTokens: 5,
    });
    metrics.consumption("chat", 0.5);
    metrics.job("lead.notify", "completed", 0.1);
    metrics.channelInbound("telegram", "accepted");
    metrics.channelSend("telegram", "sent", 0.2);
    metrics.channelAnswered("telegram", 3);
    metrics.firstHumanReply(60);
    metrics.readWaitingForHumanFrom(async () => 0);
    metrics.readQueueDepthsFrom(async () => new Map([["lead.notify", 0]]));
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
      expect(row.labels, metric.name).toEqual(metric.labels);
    }
  });
});
