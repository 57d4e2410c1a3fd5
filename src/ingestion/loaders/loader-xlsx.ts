import type { LoadBudget } from "./load-budget.ts";
import { DocumentLoadError } from "./loader-errors.ts";
import type { LoadedSection } from "./loader-types.ts";
import { openPackage, type XmlVisitor } from "./ooxml-package.ts";
import { createTableSectionWriter } from "./table-sections.ts";
import { decodeEscapes, readWorkbookParts, type WorkbookParts } from "./xlsx-workbook.ts";
import { assertSafeArchive } from "./zip-guard.ts";

// Excel's last column is XFD; a reference past it is not a cell of a real sheet, and would make
// a row of millions of empty cells.
const MAX_COLUMNS = 16_384;

/**
 * An Excel workbook, sheet by sheet in workbook order, each row rendered with its header. Sheets
 * are read as streams of rows; only the shared strings and the rows of the section being written
 * are held, and the character cap is checked at every row.
 */
export async function loadXlsx(bytes: Uint8Array, budget: LoadBudget): Promise<LoadedSection[]> {
  const entries = await assertSafeArchive(bytes, budget.limits.maxUncompressedBytes, "XLSX");
  const workbook = openPackage(bytes, entries);
  if (!workbook.has("xl/workbook.xml")) throw notAWorkbook();
  try {
    const parts = await readWorkbookParts(workbook, budget);
    const sections: LoadedSection[] = [];
    for (const sheet of parts.sheets) {
      const writer = createTableSectionWriter(budget, sheet.name);
      await workbook.read(
        sheet.path,
        createRowReader(parts, budget, (cells) => writer.addRow(cells)),
      );
      for (const section of writer.finish()) sections.push(section);
    }
    return sections;
  } catch (error) {
    if (error instanceof DocumentLoadError) throw error;
    throw notAWorkbook();
  }
}

type Cell = {
  column: number;
  type: string | undefined;
  styleIndex: number;
  value: string;
  inline: string;
};

/** Hands each row of a worksheet's `sheetData` to `onRow` as the text of its cells, by column. */
function createRowReader(
  parts: WorkbookParts,
  budget: LoadBudget,
  onRow: (cells: string[]) => void,
): XmlVisitor {
  let cells: string[] | undefined;
  let rowCharacters = 0;
  let cell: Cell | undefined;
  let inValue = false;
  let inInlineText = false;
  let inPhonetic = false;
  return {
    open(name, attributes) {
      if (name === "row") {
        cells = [];
        rowCharacters = 0;
      } else if (name === "c" && cells) {
        // A cell without a reference follows the previous one.
        const reference = attributes.r;
        const column = reference ? columnOf(reference) : cells.length + 1;
        cell = {
          column,
          type: attributes.t,
          styleIndex: Number(attributes.s ?? 0),
          value: "",
          inline: "",
        };
      } else if (cell) {
        if (name === "v") inValue = true;
        else if (name === "rPh") inPhonetic = true;
        else if (name === "t" && !inPhonetic) inInlineText = true;
      }
    },
    close(name) {
      if (name === "v") inValue = false;
      else if (name === "t") inInlineText = false;
      else if (name === "rPh") inPhonetic = false;
      else if (name === "c" && cells && cell) {
        if (cell.column >= 1 && cell.column <= MAX_COLUMNS) {
          const text = cellText(cell, parts);
          while (cells.length < cell.column - 1) cells.push("");
          cells[cell.column - 1] = text;
          rowCharacters += text.length;
          budget.assertFits(rowCharacters);
        }
        cell = undefined;
      } else if (name === "row" && cells) {
        onRow(cells);
        cells = undefined;
      }
    },
    text(text) {
      if (!cell) return;
      if (inValue) cell.value += text;
      else if (inInlineText) cell.inline += text;
    },
  };
}

/** The text a reader sees in a cell: formula results, rich text, hyperlink labels, plain dates. */
function cellText(cell: Cell, parts: WorkbookParts): string {
  const { type, value } = cell;
  switch (type) {
    case "s":
      return collapse(parts.sharedStrings[Number.parseInt(value, 10)] ?? "");
    case "inlineStr":
      return collapse(decodeEscapes(cell.inline));
    case "str":
    case "e":
      return collapse(value);
    case "b":
      return value === "" ? "" : String(Number.parseInt(value, 10) !== 0);
    case "d":
      return value === "" ? "" : formatDate(new Date(value));
    default: {
      // A formula without a cached result, or a cell that only carries a format.
      if (value === "") return "";
      const number = Number.parseFloat(value);
      if (parts.isDateStyle(cell.styleIndex))
        return formatDate(excelToDate(number, parts.date1904));
      return collapse(String(number));
    }
  }
}

/** "B12" → 2. */
function columnOf(reference: string): number {
  let column = 0;
  for (const character of reference.toUpperCase()) {
    const code = character.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
    if (column > MAX_COLUMNS) return MAX_COLUMNS + 1;
  }
  return column;
}

// Serial days since 1899-12-30 (or since 1904-01-01), as exceljs converted them.
function excelToDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000));
}

// Excel stores dates without a zone and they are read as UTC; a date without a time of day is
// shown as the date alone, as Excel would.
function formatDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return "";
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.slice(0, 19).replace("T", " ");
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function notAWorkbook(): DocumentLoadError {
  return new DocumentLoadError(
    "The XLSX could not be read: it is corrupt or not an Excel workbook",
  );
}
