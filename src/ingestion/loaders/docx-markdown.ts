import type { DocxBlock } from "./docx-body.ts";

/** A footnote or endnote, listed after the text under the number its reference shows. */
type NoteBlock = { kind: "note"; number: number; text: string };

export type MarkdownWriter = {
  add(block: DocxBlock | NoteBlock): void;
  /** Characters written so far, separators included. */
  readonly length: number;
  /** The Markdown, and the first heading's text as the document's title. */
  finish(): { text: string; title: string | undefined };
};

// Blocks are gathered this many at a time into one string, so a document of millions of short
// paragraphs is held as a few thousand strings rather than millions.
const BATCH_BLOCKS = 1024;
const INDENT = "    ";

/**
 * Writes blocks as Markdown close to what mammoth and turndown made of a document: `#` headings,
 * paragraphs between blank lines, list items on consecutive lines as `- ` or `1. ` (turndown
 * wrote `-   `), nested levels indented by four spaces.
 */
export function createMarkdownWriter(): MarkdownWriter {
  const written: string[] = [];
  let batch: string[] = [];
  let length = 0;
  let previous: (DocxBlock | NoteBlock)["kind"] | undefined;
  let title: string | undefined;
  // Item numbers per list level, restarted when anything but a list item comes between, as an
  // HTML <ol> restarts.
  const counters: number[] = [];

  const markdownOf = (block: DocxBlock | NoteBlock): string => {
    switch (block.kind) {
      case "heading":
        title ??= block.text;
        return `${"#".repeat(block.level)} ${block.text}`;
      case "list-item": {
        const { level, ordered } = block.list;
        counters.length = Math.min(counters.length, level + 1);
        counters[level] = (counters[level] ?? 0) + 1;
        const indent = INDENT.repeat(level);
        const marker = ordered ? `${counters[level]}.` : "-";
        return `${indent}${marker} ${block.text.replaceAll("\n", `\n${indent}  `)}`;
      }
      case "note":
        return `${block.number}. ${block.text}`;
      default:
        return block.text;
    }
  };

  return {
    add(block) {
      if (block.kind !== "list-item") counters.length = 0;
      const listed = (kind: typeof previous) => kind === "list-item" || kind === "note";
      const separator =
        previous === undefined ? "" : listed(previous) && listed(block.kind) ? "\n" : "\n\n";
      const markdown = `${separator}${markdownOf(block)}`;
      previous = block.kind;
      length += markdown.length;
      batch.push(markdown);
      if (batch.length === BATCH_BLOCKS) {
        written.push(batch.join(""));
        batch = [];
      }
    },
    get length() {
      return length;
    },
    finish() {
      written.push(batch.join(""));
      batch = [];
      return { text: written.join(""), title };
    },
  };
}
