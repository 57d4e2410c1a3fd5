import type { ListLevel, ParagraphKinds } from "./docx-styles.ts";
import { renderRecord } from "./markdown-converter.ts";
import { attributeOf, type XmlVisitor } from "./ooxml-package.ts";

/** A unit of a Word document's text, as the body reader finishes it. */
export type DocxBlock =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list-item"; list: ListLevel; text: string }
  | { kind: "table"; text: string };

export type BodyReaderOptions = {
  kinds: ParagraphKinds;
  /** The URL of an external hyperlink relationship of the part, if `id` is one. */
  hyperlinkTarget(id: string): string | undefined;
  /** The marker written where a footnote or endnote is referenced, e.g. "[1]". */
  noteMarker(kind: "footnote" | "endnote", id: string): string;
  emit(block: DocxBlock): void;
  /** Told how many characters are held and not yet emitted, as they grow (a huge table). */
  holding(characters: number): void;
};

// Subtrees whose text is not the document's: deletions and moved-away text of tracked changes,
// the old properties a change records (w:pPrChange…), the newer-Office branch of a
// mc:AlternateContent whose fallback holds the same text again, and ruby guide text.
const SKIPPED = new Set(["del", "moveFrom", "Choice", "rt"]);
// Word has at most 63 columns; a larger span is not a real table.
const MAX_SPAN = 64;

type Paragraph = {
  text: string;
  styleId: string | undefined;
  numId: string | undefined;
  numLevel: string | undefined;
  link: { start: number; href: string | undefined } | undefined;
  /** Blocks inside the paragraph (text boxes), placed after it as mammoth did. */
  deferred: DocxBlock[];
};
type Table = { header: string[] | undefined; lines: string[]; characters: number };
type Row = { cells: string[]; deleted: boolean };
type Cell = { texts: string[]; span: number; continuation: boolean };

/**
 * Reads WordprocessingML (document.xml, footnotes.xml…) from SAX events into blocks: paragraphs
 * with their heading level or list level, and each table rendered as header-labelled rows like a
 * CSV sheet. Only the open paragraphs and the current table are held.
 */
export function createBodyReader(options: BodyReaderOptions): XmlVisitor {
  const paragraphs: Paragraph[] = [];
  let skipDepth = 0;
  let runDepth = 0;
  let textDepth = 0;
  let inParagraphProperties = false;
  let tableDepth = 0;
  let table: Table | undefined;
  let row: Row | undefined;
  let cell: Cell | undefined;
  let inRowProperties = false;
  let inCellProperties = false;
  let openCharacters = 0;

  const append = (text: string) => {
    const paragraph = paragraphs.at(-1);
    if (!paragraph) return;
    paragraph.text += text;
    openCharacters += text.length;
    options.holding(openCharacters + (table?.characters ?? 0));
  };

  const route = (block: DocxBlock) => {
    const parent = paragraphs.at(-1);
    if (parent) parent.deferred.push(block);
    else if (cell) cell.texts.push(block.text);
    else {
      options.emit(block);
      openCharacters = 0;
    }
  };

  const closeParagraph = () => {
    const paragraph = paragraphs.pop();
    if (!paragraph) return;
    const text = tidy(paragraph.text);
    if (text !== "") route(blockOf(paragraph, text, options.kinds));
    for (const block of paragraph.deferred) route(block);
  };

  const closeLink = () => {
    const paragraph = paragraphs.at(-1);
    const link = paragraph?.link;
    if (!paragraph || !link) return;
    paragraph.link = undefined;
    const inner = paragraph.text.slice(link.start);
    const label = inner.trim();
    if (link.href === undefined || label === "") return;
    const leading = inner.slice(0, inner.length - inner.trimStart().length);
    const trailing = inner.slice(inner.trimEnd().length);
    paragraph.text = `${paragraph.text.slice(0, link.start)}${leading}[${label}](${link.href})${trailing}`;
  };

  const closeRow = () => {
    if (!table || !row) return;
    const { cells, deleted } = row;
    row = undefined;
    if (deleted || !cells.some((text) => text !== "")) return;
    if (!table.header) {
      table.header = cells;
    } else {
      const line = renderRecord(table.header, cells);
      table.lines.push(line);
      table.characters += line.length + 1;
    }
    openCharacters = 0;
    options.holding(table.characters);
  };

  const closeTable = () => {
    if (!table) return;
    const { header, lines } = table;
    table = undefined;
    row = undefined;
    cell = undefined;
    const text = !header ? "" : lines.length === 0 ? header.join(" | ") : lines.join("\n");
    if (text !== "") route({ kind: "table", text });
  };

  return {
    open(name, attributes) {
      if (skipDepth > 0) {
        skipDepth++;
        return;
      }
      const paragraph = paragraphs.at(-1);
      switch (name) {
        case "p":
          paragraphs.push({
            text: "",
            styleId: undefined,
            numId: undefined,
            numLevel: undefined,
            link: undefined,
            deferred: [],
          });
          return;
        case "pPr":
          inParagraphProperties = paragraph !== undefined;
          return;
        case "pStyle":
          if (inParagraphProperties && paragraph)
            paragraph.styleId = attributeOf(attributes, "val");
          return;
        case "numId":
          if (inParagraphProperties && paragraph) paragraph.numId = attributeOf(attributes, "val");
          return;
        case "ilvl":
          if (inParagraphProperties && paragraph)
            paragraph.numLevel = attributeOf(attributes, "val");
          return;
        case "r":
          runDepth++;
          return;
        case "t":
          if (runDepth > 0) textDepth++;
          return;
        case "tab":
          if (runDepth > 0) append(" ");
          return;
        case "br":
        case "cr": {
          // Page and column breaks end nothing in the text; a line break ends a line.
          const type = attributeOf(attributes, "type");
          if (runDepth > 0 && (type === undefined || type === "textWrapping")) append("\n");
          return;
        }
        case "noBreakHyphen":
          if (runDepth > 0) append("-");
          return;
        case "footnoteReference":
        case "endnoteReference":
          if (runDepth > 0) {
            const kind = name === "footnoteReference" ? "footnote" : "endnote";
            append(options.noteMarker(kind, attributeOf(attributes, "id") ?? ""));
          }
          return;
        case "hyperlink":
          if (paragraph)
            paragraph.link = { start: paragraph.text.length, href: hrefOf(attributes) };
          return;
        case "tbl":
          tableDepth++;
          if (tableDepth === 1) table = { header: undefined, lines: [], characters: 0 };
          return;
        case "tr":
          if (tableDepth === 1) row = { cells: [], deleted: false };
          return;
        case "trPr":
          inRowProperties = tableDepth === 1;
          return;
        case "tc":
          if (tableDepth === 1 && row) cell = { texts: [], span: 1, continuation: false };
          return;
        case "tcPr":
          inCellProperties = tableDepth === 1;
          return;
        case "gridSpan":
          if (inCellProperties && cell) {
            const span = Number.parseInt(attributeOf(attributes, "val") ?? "1", 10);
            cell.span = Math.min(MAX_SPAN, Math.max(1, span || 1));
          }
          return;
        case "vMerge":
          // The cells a vertical merge continues into are empty in the text; keeping them keeps
          // the columns under their headers (mammoth dropped them, shifting the row left).
          if (inCellProperties && cell) {
            const value = attributeOf(attributes, "val");
            cell.continuation = value === undefined || value === "continue";
          }
          return;
        default:
          if (name === "del" && inRowProperties && row) row.deleted = true;
          if (SKIPPED.has(name) || name.endsWith("Change")) skipDepth = 1;
      }
    },

    close(name) {
      if (skipDepth > 0) {
        skipDepth--;
        return;
      }
      switch (name) {
        case "p":
          closeParagraph();
          return;
        case "pPr":
          inParagraphProperties = false;
          return;
        case "r":
          runDepth = Math.max(0, runDepth - 1);
          return;
        case "t":
          textDepth = Math.max(0, textDepth - 1);
          return;
        case "hyperlink":
          closeLink();
          return;
        case "tbl":
          tableDepth = Math.max(0, tableDepth - 1);
          if (tableDepth === 0) closeTable();
          return;
        case "tr":
          if (tableDepth === 1) closeRow();
          return;
        case "trPr":
          inRowProperties = false;
          return;
        case "tc":
          if (tableDepth === 1 && row && cell) {
            const text = cell.continuation ? "" : collapse(cell.texts.join(" "));
            row.cells.push(text);
            for (let extra = 1; extra < cell.span; extra++) row.cells.push("");
            cell = undefined;
          }
          return;
        case "tcPr":
          inCellProperties = false;
      }
    },

    text(text) {
      if (skipDepth === 0 && textDepth > 0) append(text.replace(/[\t\r\n]/g, " "));
    },
  };

  function hrefOf(attributes: Readonly<Record<string, string>>): string | undefined {
    const id = attributeOf(attributes, "id");
    const target = id === undefined ? undefined : options.hyperlinkTarget(id);
    if (target === undefined) return undefined;
    // A link into a bookmark of another document; a bookmark of this one alone leads nowhere
    // once the text is a chunk, so it stays text.
    const anchor = attributeOf(attributes, "anchor");
    return anchor === undefined ? target : `${target.split("#")[0]}#${anchor}`;
  }
}

function blockOf(paragraph: Paragraph, text: string, kinds: ParagraphKinds): DocxBlock {
  const level = kinds.headingLevel(paragraph.styleId);
  if (level !== undefined) return { kind: "heading", level, text: text.replace(/\n/g, " ") };
  const list = kinds.listLevel(
    { numId: paragraph.numId, level: paragraph.numLevel },
    paragraph.styleId,
  );
  return list ? { kind: "list-item", list, text } : { kind: "paragraph", text };
}

/** Runs of spaces as one, lines trimmed, at most one empty line in a row. */
function tidy(text: string): string {
  if (!text.includes("\n")) return text.replace(/ {2,}/g, " ").trim();
  return text
    .split("\n")
    .map((line) => line.replace(/ {2,}/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
