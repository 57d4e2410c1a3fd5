import { describe, expect, test } from "vitest";
import { creationTime } from "../../src/lib/creation-time.ts";

describe("creationTime", () => {
  test("hands out strictly increasing times, never before the clock", () => {
    const before = Date.now();
    const times = Array.from({ length: 1_000 }, () => creationTime().getTime());
    expect(times[0]).toBeGreaterThanOrEqual(before);
    for (let index = 1; index < times.length; index += 1) {
      expect(times[index]).toBeGreaterThan(times[index - 1]!);
    }
  });

  test("follows the clock again once it has caught up", async () => {
    const handedOut = creationTime().getTime();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, handedOut - Date.now()) + 20));
    const before = Date.now();
    const next = creationTime().getTime();
    expect(next).toBeGreaterThanOrEqual(before);
    expect(next).toBeLessThanOrEqual(Date.now());
  });
});
