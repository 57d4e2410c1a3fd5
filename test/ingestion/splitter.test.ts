import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type Chunk, SplitterError, splitIntoChunks } from "../../src/ingestion/splitter.ts";
import { countTokens } from "../../src/ingestion/token-count.ts";
import { contentHash } from "../../src/lib/content-hash.ts";

const SENTENCES = [
  "The Hub keeps automations running when the internet is down.",
  "Cameras record to their memory card during an outage.",
  "Each sensor reports a low battery several weeks ahead.",
  "Support answers chat messages every day of the week.",
  "Annual plans cost the same as ten monthly payments.",
  "The lock opens with its keypad even without Wi-Fi.",
];

/** Prose of `count` sentences cycling through SENTENCES, in paragraphs of four sentences. */
function prose(count: number): string {
  const sentences = Array.from(
    { length: count },
    (_, index) => SENTENCES[index % SENTENCES.length],
  );
  const paragraphs: string[] = [];
  for (let index = 0; index < sentences.length; index += 4) {
    paragraphs.push(sentences.slice(index, index + 4).join(" "));
  }
  return paragraphs.join("\n\n");
}

const bodyOf = (section: string, chunk: Chunk) => section.slice(chunk.startOffset, chunk.endOffset);

describe("splitIntoChunks: structure", () => {
  test("starts a chunk at each heading and keeps the heading path", () => {
    const text = `# Pricing\n\n## Standard\n\n${prose(12)}\n\n## Enterprise\n\n${prose(12)}`;
    const chunks = splitIntoChunks([{ text, metadata: {} }], { chunkTokens: 200 });

    expect(chunks.length).toBeGreaterThanOrEqual(2);
    const enterpriseAt = text.indexOf("## Enterprise");
    const enterprise = chunks.find((chunk) => chunk.startOffset === enterpriseAt);
    expect(enterprise).toBeDefined();
    expect(enterprise!.heading).toBe("Pricing > Enterprise");
    expect(enterprise!.text.startsWith("Pricing > Enterprise\n\n## Enterprise\n\n")).toBe(true);
    // No chunk of the Standard section runs into the Enterprise heading, and no overlap crosses it.
    for (const chunk of chunks) {
      const crosses = chunk.startOffset < enterpriseAt && chunk.endOffset > enterpriseAt;
      expect(crosses).toBe(false);
    }
    expect(chunks[0]!.heading).toBe("Pricing > Standard");
    expect(
      chunks.filter((chunk) => chunk.startOffset > enterpriseAt).map((c) => c.heading),
    ).toEqual(
      chunks.filter((chunk) => chunk.startOffset > enterpriseAt).map(() => "Pricing > Enterprise"),
    );
  });

  test("reads setext headings and ignores # lines inside code fences", () => {
    const text = [
      "Installation",
      "============",
      "",
      prose(8),
      "",
      "```bash",
      "# not a heading, a shell comment",
      "agentdesk serve",
      "```",
      "",
      "Wiring",
      "------",
      "",
      prose(8),
    ].join("\n");
    const chunks = splitIntoChunks([{ text, metadata: {} }], { chunkTokens: 120 });
    const headings = new Set(chunks.map((chunk) => chunk.heading));
    expect(headings).toEqual(new Set(["Installation", "Installation > Wiring"]));
  });

  test("leaves the text unprefixed when headingPrefix is off", () => {
    const text = `## Returns\n\n${prose(30)}`;
    const chunks = splitIntoChunks([{ text, metadata: {} }], {
      chunkTokens: 100,
      headingPrefix: false,
    });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.heading).toBe("Returns");
      expect(chunk.text).toBe(bodyOf(text, chunk));
    }
  });

  test("numbers chunks across sections and copies each section's metadata", () => {
    const sections = [
      { text: prose(30), metadata: { page: 1 } },
      { text: "", metadata: { page: 2 } },
      { text: prose(30), metadata: { page: 3 } },
    ];
    const chunks = splitIntoChunks(sections, { chunkTokens: 120 });
    expect(chunks.map((chunk) => chunk.index)).toEqual(chunks.map((_, index) => index));
    expect(new Set(chunks.map((chunk) => chunk.sectionIndex))).toEqual(new Set([0, 2]));
    for (const chunk of chunks) {
      expect(chunk.metadata).toEqual(sections[chunk.sectionIndex]!.metadata);
      expect(chunk.metadata).not.toBe(sections[chunk.sectionIndex]!.metadata);
      expect(chunk.heading).toBeNull();
    }
  });

  test("splits text written without spaces between CJK characters", () => {
    const text = "在线帮助中心提供设备安装说明。".repeat(40);
    const chunks = splitIntoChunks([{ text, metadata: {} }], { chunkTokens: 64 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(64);
  });
});

describe("splitIntoChunks: sizes and overlap", () => {
  test("keeps chunks near the target and within it", () => {
    const text = prose(300);
    const chunks = splitIntoChunks([{ text, metadata: {} }]);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(512);
      expect(chunk.tokenCount).toBe(countTokens(chunk.text));
    }
    for (const chunk of chunks.slice(0, -1)) expect(chunk.tokenCount).toBeGreaterThan(512 * 0.5);
  });

  test("overlaps consecutive chunks by whole sentences of about 15% of the target", () => {
    const text = prose(200);
    const chunks = splitIntoChunks([{ text, metadata: {} }], { chunkTokens: 256 });
    expect(chunks.length).toBeGreaterThan(3);
    for (let index = 1; index < chunks.length; index += 1) {
      const previous = chunks[index - 1]!;
      const current = chunks[index]!;
      expect(current.startOffset).toBeLessThan(previous.endOffset);
      const overlapTokens = countTokens(text.slice(current.startOffset, previous.endOffset));
      expect(overlapTokens).toBeGreaterThan(0);
      expect(overlapTokens).toBeLessThanOrEqual(Math.floor(256 * 0.15));
      // The overlap starts at a sentence: one of the known sentences, right after a full stop.
      expect(SENTENCES.some((sentence) => text.startsWith(sentence, current.startOffset))).toBe(
        true,
      );
    }
  });

  test("has no overlap when the ratio is 0", () => {
    const text = prose(100);
    const chunks = splitIntoChunks([{ text, metadata: {} }], { chunkTokens: 128, overlapRatio: 0 });
    for (let index = 1; index < chunks.length; index += 1) {
      expect(chunks[index]!.startOffset).toBeGreaterThan(chunks[index - 1]!.endOffset);
    }
  });

  test("keeps a word longer than the whole budget in one piece", () => {
    const giant = "x".repeat(3000);
    const text = `${prose(4)} ${giant} ${prose(4)}`;
    const chunks = splitIntoChunks([{ text, metadata: {} }], {
      chunkTokens: 64,
      headingPrefix: false,
    });
    const holder = chunks.find((chunk) => chunk.text.includes("xxx"));
    expect(holder?.text).toBe(giant);
  });

  test("refuses options it cannot honour", () => {
    const sections = [{ text: "Hello.", metadata: {} }];
    expect(() => splitIntoChunks(sections, { chunkTokens: 0 })).toThrow(SplitterError);
    expect(() => splitIntoChunks(sections, { chunkTokens: 100.5 })).toThrow(SplitterError);
    expect(() => splitIntoChunks(sections, { overlapRatio: 0.9 })).toThrow(SplitterError);
  });
});

describe("splitIntoChunks: properties over random texts", () => {
  const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9'.,!?-]{0,14}$/);
  const separator = fc.constantFrom(
    " ",
    " ",
    " ",
    "\n",
    "\n\n",
    "\n\n## Section heading\n\n",
    "\n# Top\n",
  );
  const document = fc
    .array(fc.tuple(word, separator), { minLength: 1, maxLength: 400 })
    .map((parts) => parts.map(([text, gap]) => text + gap).join(""));
  const options = fc.record({
    chunkTokens: fc.integer({ min: 16, max: 300 }),
    overlapRatio: fc.double({ min: 0, max: 0.5, noNaN: true }),
    headingPrefix: fc.boolean(),
  });

  test("never splits a word, covers every word, stays in budget and is deterministic", () => {
    fc.assert(
      fc.property(document, options, (text, splitOptions) => {
        const chunks = splitIntoChunks([{ text, metadata: {} }], splitOptions);
        let covered = 0;
        let previous: Chunk | undefined;
        for (const chunk of chunks) {
          const body = bodyOf(text, chunk);
          expect(chunk.text.endsWith(body)).toBe(true);
          expect(chunk.startOffset === 0 || /\s/.test(text[chunk.startOffset - 1]!)).toBe(true);
          expect(chunk.endOffset === text.length || /\s/.test(text[chunk.endOffset]!)).toBe(true);
          expect(body).toBe(body.trim());
          expect(chunk.tokenCount).toBe(countTokens(chunk.text));
          if (/\s/.test(body))
            expect(chunk.tokenCount).toBeLessThanOrEqual(splitOptions.chunkTokens);
          expect(text.slice(covered, chunk.startOffset).trim()).toBe("");
          covered = Math.max(covered, chunk.endOffset);
          if (previous) {
            expect(chunk.startOffset).toBeGreaterThan(previous.startOffset);
            expect(chunk.endOffset).toBeGreaterThan(previous.endOffset);
          }
          previous = chunk;
        }
        expect(text.slice(covered).trim()).toBe("");
        expect(splitIntoChunks([{ text, metadata: {} }], splitOptions)).toEqual(chunks);
      }),
      { numRuns: 300, seed: 20_240_611 },
    );
  });
});

describe("countTokens", () => {
  test("approximates cl100k on English", () => {
    expect(countTokens("Hello world")).toBe(2);
    expect(countTokens("")).toBe(0);
    // "thermostat" and "schedule" are longer than six letters: two tokens each by the estimate.
    expect(countTokens("The thermostat keeps its schedule.")).toBe(8);
    expect(countTokens("漢字")).toBe(2);
  });

  test("is additive over whitespace", () => {
    const text = fc
      .string({ maxLength: 60, unit: "grapheme" })
      .filter((value) => !/\s/.test(value));
    fc.assert(
      fc.property(text, text, (left, right) => {
        expect(countTokens(`${left} ${right}`)).toBe(countTokens(left) + countTokens(right));
      }),
      { seed: 7 },
    );
  });
});

describe("content hashes", () => {
  test("hashes normalised text with SHA-256", () => {
    // sha256("hello world"), computed with `printf 'hello world' | sha256sum`.
    const expected = "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9";
    expect(contentHash("hello world")).toBe(expected);
    expect(contentHash("  hello \n\t world  ")).toBe(expected);
    expect(contentHash("caf\u0065\u0301")).toBe(contentHash("caf\u00e9"));
    expect(contentHash("hello world!")).not.toBe(expected);
  });

  test("gives each chunk the hash of its text, the same on every run", () => {
    const numbered = Array.from(
      { length: 60 },
      (_, index) => `Step ${index} turns dial ${index * 7}.`,
    );
    const sections = [{ text: `# Title\n\n${numbered.join(" ")}`, metadata: {} }];
    const first = splitIntoChunks(sections, { chunkTokens: 128 });
    const second = splitIntoChunks(sections, { chunkTokens: 128 });
    expect(first.map((chunk) => chunk.contentHash)).toEqual(
      second.map((chunk) => chunk.contentHash),
    );
    for (const chunk of first) expect(chunk.contentHash).toBe(contentHash(chunk.text));
    expect(new Set(first.map((chunk) => chunk.contentHash)).size).toBe(first.length);
  });
});
