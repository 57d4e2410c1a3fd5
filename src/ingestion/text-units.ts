import { countTokens } from "./token-count.ts";

/**
 * How good a place the gap before a unit is for ending a chunk. `glue` marks gaps the splitter
 * avoids (inside a heading line, between a heading and its first line of content).
 */
export const Boundary = { glue: 0, word: 1, sentence: 2, paragraph: 3, heading: 4 } as const;
export type BoundaryStrength = (typeof Boundary)[keyof typeof Boundary];

/** The smallest piece the splitter moves: a whitespace-delimited word (or one CJK character). */
export type TextUnit = {
  start: number;
  end: number;
  tokens: number;
  /** Strength of the gap before this unit. */
  boundary: BoundaryStrength;
  /** Whether the unit belongs to a heading line (including a setext underline). */
  inHeading: boolean;
  /** Headings in effect at this unit, outermost first (shared between units of one section). */
  headingPath: readonly string[];
};

type LineKind = "heading" | "setext-underline" | "fence" | "code" | "blank" | "text";

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;
// Han, Hiragana and Katakana are written without spaces; each character (with any trailing CJK
// punctuation) is its own unit so such text can still be split, never inside a Latin word.
const UNIT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}][\u3000-\u303f\uff00-\uffef]*|[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
const SENTENCE_END = /[.!?…]["'”’)\]]*$/u;
const CJK_SENTENCE_END = /[。！？]$/u;
const SENTENCE_START = /^["'“‘([]*[\p{Lu}\p{N}]/u;
const ABBREVIATIONS = new Set([
  "e.g.",
  "i.e.",
  "vs.",
  "mr.",
  "mrs.",
  "ms.",
  "dr.",
  "st.",
  "no.",
  "approx.",
  "inc.",
  "ltd.",
  "jr.",
  "sr.",
  "fig.",
  "cf.",
]);

type Line = { start: number; text: string };

/** Splits a section's text into units, marking each gap with its boundary strength. */
export function segmentText(text: string): TextUnit[] {
  const lines = splitLines(text);
  const kinds = classifyLines(lines);
  const units: TextUnit[] = [];
  let stack: Array<{ level: number; title: string }> = [];
  let headingPath: readonly string[] = [];
  let previousUnitText = "";
  let sawBlank = false;
  let afterHeading = false;
  let afterFence = false;

  for (const [lineIndex, line] of lines.entries()) {
    const kind = kinds[lineIndex]!;
    if (kind === "blank") {
      sawBlank = true;
      continue;
    }
    const heading = headingOf(line, kind, lines[lineIndex + 1]);
    if (heading) {
      stack = [...stack.filter((entry) => entry.level < heading.level), heading];
      headingPath = stack.map((entry) => entry.title).filter((title) => title.length > 0);
    }
    let firstOnLine = true;
    for (const match of line.text.matchAll(UNIT)) {
      const unitText = match[0];
      let boundary: BoundaryStrength;
      if (firstOnLine) {
        if (kind === "setext-underline") boundary = Boundary.glue;
        else if (heading) boundary = afterHeading ? Boundary.glue : Boundary.heading;
        else if (afterHeading) boundary = Boundary.glue;
        else if (sawBlank || kind === "fence" || afterFence) boundary = Boundary.paragraph;
        else boundary = Boundary.sentence;
      } else if (heading) {
        boundary = Boundary.glue;
      } else {
        boundary = endsSentence(previousUnitText, unitText) ? Boundary.sentence : Boundary.word;
      }
      units.push({
        start: line.start + match.index,
        end: line.start + match.index + unitText.length,
        tokens: countTokens(unitText),
        boundary,
        inHeading: heading !== null || kind === "setext-underline",
        headingPath,
      });
      previousUnitText = unitText;
      firstOnLine = false;
    }
    if (!firstOnLine) {
      sawBlank = false;
      afterHeading = heading !== null || kind === "setext-underline";
      afterFence = kind === "fence";
    }
  }
  return units;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    lines.push({ start, text: text.slice(start, end).replace(/\r$/, "") });
    if (newline < 0) break;
    start = newline + 1;
  }
  return lines;
}

function classifyLines(lines: Line[]): LineKind[] {
  const kinds: LineKind[] = [];
  let openFence: string | null = null;
  for (const line of lines) {
    const fence = FENCE.exec(line.text)?.[1];
    if (openFence !== null) {
      const closes =
        fence !== undefined && fence[0] === openFence[0] && fence.length >= openFence.length;
      if (closes) openFence = null;
      kinds.push(closes ? "fence" : line.text.trim() === "" ? "blank" : "code");
    } else if (fence) {
      openFence = fence;
      kinds.push("fence");
    } else if (line.text.trim() === "") {
      kinds.push("blank");
    } else if (ATX_HEADING.test(line.text)) {
      kinds.push("heading");
    } else {
      kinds.push("text");
    }
  }
  // A setext heading is a single text line (after a blank line or at the start) underlined with
  // "===" or "---"; longer paragraphs and list items keep "---" as a thematic break.
  for (let index = 1; index < lines.length; index += 1) {
    const previous = kinds[index - 1];
    const beforePrevious = index >= 2 ? kinds[index - 2] : "blank";
    if (
      kinds[index] === "text" &&
      previous === "text" &&
      (beforePrevious === "blank" || beforePrevious === "heading") &&
      SETEXT_UNDERLINE.test(lines[index]!.text) &&
      !LIST_ITEM.test(lines[index - 1]!.text)
    ) {
      kinds[index - 1] = "heading";
      kinds[index] = "setext-underline";
    }
  }
  return kinds;
}

function headingOf(
  line: Line,
  kind: LineKind,
  nextLine: Line | undefined,
): { level: number; title: string } | null {
  if (kind !== "heading") return null;
  const atx = ATX_HEADING.exec(line.text);
  if (atx) return { level: atx[1]!.length, title: cleanHeading(atx[2] ?? "") };
  const level = nextLine?.text.trim().startsWith("=") ? 1 : 2;
  return { level, title: cleanHeading(line.text) };
}

function cleanHeading(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function endsSentence(previous: string, next: string): boolean {
  if (CJK_SENTENCE_END.test(previous)) return true;
  if (!SENTENCE_END.test(previous) || !SENTENCE_START.test(next)) return false;
  const word = previous.toLowerCase().replace(/["'”’)\]]+$/u, "");
  if (ABBREVIATIONS.has(word)) return false;
  // Initials such as "J." in "J. Smith" are not sentence ends.
  return !/^\p{L}\.$/u.test(word);
}
