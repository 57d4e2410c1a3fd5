import { isCuid } from "@paralleldrive/cuid2";
import { describe, expect, test } from "vitest";
import { newId } from "../../src/lib/ids.ts";

describe("newId", () => {
  test("makes 25-character CUID2s: a lowercase letter, then base-36 digits", () => {
    for (let index = 0; index < 1_000; index += 1) {
      const id = newId();
      expect(id).toMatch(/^[a-z][0-9a-z]{24}$/);
      expect(isCuid(id)).toBe(true);
    }
  });

  test("never repeats itself in 100,000 ids made within the same milliseconds", () => {
    const ids = new Set(Array.from({ length: 100_000 }, () => newId()));
    expect(ids.size).toBe(100_000);
  });

  test("spreads first letters and digits evenly", () => {
    const letters = new Map<string, number>();
    const digits = new Map<string, number>();
    for (let index = 0; index < 26_000; index += 1) {
      const id = newId();
      letters.set(id[0]!, (letters.get(id[0]!) ?? 0) + 1);
      for (const digit of id.slice(1)) digits.set(digit, (digits.get(digit) ?? 0) + 1);
    }
    expect(letters.size).toBe(26);
    for (const count of letters.values()) expect(count).toBeGreaterThan(800);
    expect(digits.size).toBe(36);
    const expected = (26_000 * 24) / 36;
    for (const count of digits.values()) {
      expect(count).toBeGreaterThan(expected * 0.9);
      expect(count).toBeLessThan(expected * 1.1);
    }
  });
});
