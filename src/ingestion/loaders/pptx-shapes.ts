import { renderRecord } from "./markdown-converter.ts";
import { attributeOf, type XmlVisitor } from "./ooxml-package.ts";

export type ShapeReaderOptions = {
  /**
   * A shape (`p:sp`) and its non-empty paragraphs; `placeholder` is its placeholder type, "body"
   * for a placeholder without one (the ECMA-376 default), undefined for a shape that is none.
   */
  shape(placeholder: string | undefined, paragraphs: string[]): void;
  /** A table's lines: header-labelled rows, or the header alone when it has no other row. */
  table(lines: string[]): void;
  /** Told each paragraph's length as it is read, before the shape or table ends. */
  paragraph(characters: number): void;
};

type Container =
  | { kind: "shape"; placeholder: string | undefined; paragraphs: string[] }
  | { kind: "table"; header: string[] | undefined; lines: string[] };

/**
 * Reads the shapes and tables of a slide or notes page (PresentationML with DrawingML text) from
 * SAX events, in document order, which is reading order. The first shape or table met is the
 * container of everything inside it, as in a walk of the tree that stops at either: group shapes
 * and graphic frames are looked through. Only the current shape or table is held.
 */
export function createShapeReader(options: ShapeReaderOptions): XmlVisitor {
  let container: Container | undefined;
  // Elements open inside the container, the container itself included.
  let depth = 0;
  let paragraphDepth = 0;
  let paragraph = "";
  let textDepth = 0;
  let row: string[] | undefined;
  let rowDepth = 0;
  let cell: string[] | undefined;
  let cellDepth = 0;

  const closeParagraph = () => {
    const text = paragraph.replace(/[^\S\n]+/g, " ").trim();
    paragraph = "";
    if (text === "") return;
    options.paragraph(text.length);
    if (cell) cell.push(text);
    else if (container?.kind === "shape") container.paragraphs.push(text);
  };

  const closeRow = (table: Extract<Container, { kind: "table" }>, cells: string[]) => {
    if (!cells.some((text) => text !== "")) return;
    if (!table.header) table.header = cells;
    else table.lines.push(renderRecord(table.header, cells));
  };

  const closeContainer = (ended: Container) => {
    if (ended.kind === "shape") {
      options.shape(ended.placeholder, ended.paragraphs);
    } else if (ended.header) {
      options.table(ended.lines.length === 0 ? [ended.header.join(" | ")] : ended.lines);
    }
  };

  return {
    open(name, attributes) {
      if (!container) {
        if (name === "sp") container = { kind: "shape", placeholder: undefined, paragraphs: [] };
        else if (name === "tbl") container = { kind: "table", header: undefined, lines: [] };
        else return;
        depth = 1;
        return;
      }
      depth++;
      if (name === "p") paragraphDepth++;
      else if (paragraphDepth > 0 && name === "t") textDepth++;
      else if (paragraphDepth > 0 && name === "br") paragraph += "\n";
      else if (name === "ph" && container.kind === "shape" && container.placeholder === undefined) {
        container.placeholder = attributeOf(attributes, "type") ?? "body";
      } else if (container.kind === "table") {
        // Rows and cells of a table nested in a cell belong to that cell's text.
        if (name === "tr" && rowDepth++ === 0) row = [];
        else if (name === "tc" && row && cellDepth++ === 0) cell = [];
      }
    },

    close(name) {
      if (!container) return;
      depth--;
      if (depth === 0) {
        const ended = container;
        container = undefined;
        closeContainer(ended);
        return;
      }
      if (name === "p") {
        paragraphDepth--;
        if (paragraphDepth === 0) closeParagraph();
      } else if (name === "t" && textDepth > 0) {
        textDepth--;
      } else if (container.kind === "table") {
        if (name === "tc" && cellDepth > 0 && --cellDepth === 0 && row && cell) {
          row.push(cell.join(" "));
          cell = undefined;
        } else if (name === "tr" && rowDepth > 0 && --rowDepth === 0 && row) {
          closeRow(container, row);
          row = undefined;
        }
      }
    },

    text(text) {
      if (textDepth > 0) paragraph += text;
    },
  };
}
