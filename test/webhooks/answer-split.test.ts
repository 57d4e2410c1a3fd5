import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { maxPartsForChannel, splitAnswer } from "../../src/domain/webhooks/answer-split.ts";

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

const sentence = (words: number, seed: number) =>
  `Word${Array.from({ length: words }, (_, index) => `word${(seed * 31 + index) % 97}`).join(" ")}.`;

describe("splitting an answer into messages", () => {
  test("keeps up to three paragraphs as they are", () => {
    const answer = "First paragraph.\n\nSecond one, a bit longer.\n\nThird.";
    expect(splitAnswer(answer, 3)).toEqual([
      "First paragraph.",
      "Second one, a bit longer.",
      "Third.",
    ]);
  });

  test("merges neighbouring paragraphs, never cutting one, when there are more than allowed", () => {
    const paragraphs = [
      "One.",
      "Two two.",
      "Three three three.",
      "Four.",
      "Five five five five five.",
    ];
    const parts = splitAnswer(paragraphs.join("\n\n"), 3);
    expect(parts).toHaveLength(3);
    for (const paragraph of paragraphs) {
      expect(parts.filter((part) => part.includes(paragraph))).toHaveLength(1);
    }
    expect(collapse(parts.join(" "))).toBe(collapse(paragraphs.join(" ")));
  });

  test("cuts a long paragraph at sentence ends", () => {
    const sentences = Array.from({ length: 8 }, (_, index) => sentence(12, index));
    const parts = splitAnswer(sentences.join(" "), 3);
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part).toMatch(/\.$/);
    expect(parts.join(" ")).toBe(sentences.join(" "));
  });

  test("leaves a short answer whole", () => {
    expect(splitAnswer("  Yes, it ships today.  ", 3)).toEqual(["Yes, it ships today."]);
    expect(splitAnswer("", 3)).toEqual([]);
  });

  test("allows ten messages on meta and three elsewhere", () => {
    expect(maxPartsForChannel("meta")).toBe(10);
    for (const channel of ["api", "whatsapp", "website", "telegram"]) {
      expect(maxPartsForChannel(channel)).toBe(3);
    }
    const paragraphs = Array.from({ length: 12 }, (_, index) => sentence(5, index));
    expect(splitAnswer(paragraphs.join("\n\n"), maxPartsForChannel("meta"))).toHaveLength(10);
  });

  test("never exceeds the limit, never cuts a word, never loses or adds text", () => {
    const word = fc.stringMatching(/^[A-Za-zÀ-ÿ0-9'’-]{1,12}$/);
    const punctuation = fc.constantFrom("", "", "", ".", "!", "?", ",", ";", ":");
    const token = fc.tuple(word, punctuation).map(([text, mark]) => text + mark);
    const gap = fc.constantFrom(" ", " ", " ", "  ", "\n", "\n\n", "\n \n", "\t");
    const answer = fc
      .array(fc.tuple(token, gap), { minLength: 1, maxLength: 400 })
      .map((pairs) => pairs.map(([text, space]) => text + space).join(""));
    fc.assert(
      fc.property(answer, fc.integer({ min: 1, max: 10 }), (text, max) => {
        const parts = splitAnswer(text, max);
        expect(parts.length).toBeGreaterThanOrEqual(1);
        expect(parts.length).toBeLessThanOrEqual(max);
        for (const part of parts) {
          expect(part).not.toBe("");
          expect(part).toBe(part.trim());
        }
        // Joining with a space gives the answer back only if every cut fell on whitespace.
        expect(collapse(parts.join(" "))).toBe(collapse(text));
      }),
      { numRuns: 300 },
    );
  });
});
