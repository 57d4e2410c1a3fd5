import type { LoadBudget } from "./load-budget.ts";
import { attributeOf, type OoxmlPackage } from "./ooxml-package.ts";

/** What reading a sheet's cells needs from the rest of the workbook. */
export type WorkbookParts = {
  /** The worksheets in workbook order (tab order), with their part paths. */
  sheets: Array<{ name: string; path: string }>;
  /** The shared string table, runs joined, phonetic guides left out. */
  sharedStrings: string[];
  /** Whether the cell format at this index (a cell's `s`) shows its number as a date or time. */
  isDateStyle(styleIndex: number): boolean;
  /** Serial day 0 is 1904-01-01 instead of 1899-12-30 (old Mac workbooks). */
  date1904: boolean;
};

// The built-in number formats (ECMA-376 18.8.30) that show a date or time, as exceljs listed
// them; the locale-specific ones (27-36, 50-58) had no format in exceljs and read as numbers.
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/**
 * Reads the workbook part, its relationships, the shared strings and the cell formats. The
 * shared strings are held for the sheets to look up, so their characters count against the cap.
 */
export async function readWorkbookParts(
  workbook: OoxmlPackage,
  budget: LoadBudget,
): Promise<WorkbookParts> {
  const relationships = await workbook.relationships("xl/workbook.xml");
  const partOfType = (type: string) =>
    [...relationships.values()].find((relationship) => relationship.type.endsWith(`/${type}`))
      ?.target;
  const sheets: WorkbookParts["sheets"] = [];
  let date1904 = false;
  await workbook.read("xl/workbook.xml", {
    open(name, attributes) {
      if (name === "workbookPr") {
        const value = attributeOf(attributes, "date1904");
        date1904 = value === "1" || value === "true";
      } else if (name === "sheet") {
        // As in p:sldId, the relationship id is the prefixed "r:id".
        const key = Object.keys(attributes).find((key) => key.endsWith(":id"));
        const relationship = key ? relationships.get(attributes[key]!) : undefined;
        // Chart sheets and macro sheets hold no cells.
        if (relationship?.type.endsWith("/worksheet") && !relationship.external) {
          sheets.push({ name: attributes.name ?? "", path: relationship.target });
        }
      }
    },
  });
  const sharedStringsPath = partOfType("sharedStrings");
  const stylesPath = partOfType("styles");
  return {
    sheets,
    sharedStrings: sharedStringsPath
      ? await readSharedStrings(workbook, sharedStringsPath, budget)
      : [],
    isDateStyle: stylesPath ? await readDateStyles(workbook, stylesPath) : () => false,
    date1904,
  };
}

async function readSharedStrings(
  workbook: OoxmlPackage,
  path: string,
  budget: LoadBudget,
): Promise<string[]> {
  const strings: string[] = [];
  let parts: string[] | undefined;
  let inText = false;
  let inPhonetic = false;
  let characters = 0;
  await workbook.read(path, {
    open(name) {
      if (name === "si") parts = [];
      else if (name === "rPh") inPhonetic = true;
      else if (name === "t" && parts && !inPhonetic) inText = true;
    },
    close(name) {
      if (name === "t") inText = false;
      else if (name === "rPh") inPhonetic = false;
      else if (name === "si" && parts) {
        const text = decodeEscapes(parts.join(""));
        strings.push(text);
        parts = undefined;
        characters += text.length;
        budget.assertFits(characters);
      }
    },
    text(text) {
      if (inText) parts?.push(text);
    },
  });
  return strings;
}

/** Which cell formats (`cellXfs`) show dates, from their number format, as exceljs decided. */
async function readDateStyles(
  workbook: OoxmlPackage,
  path: string,
): Promise<(styleIndex: number) => boolean> {
  const customFormats = new Map<number, string>();
  const formatIds: number[] = [];
  let inFormats = false;
  let inCellFormats = false;
  await workbook.read(path, {
    open(name, attributes) {
      if (name === "numFmts") inFormats = true;
      else if (name === "cellXfs") inCellFormats = true;
      else if (inFormats && name === "numFmt") {
        const id = Number(attributeOf(attributes, "numFmtId"));
        customFormats.set(id, attributeOf(attributes, "formatCode") ?? "");
      } else if (inCellFormats && name === "xf") {
        formatIds.push(Number(attributeOf(attributes, "numFmtId") ?? 0));
      }
    },
    close(name) {
      if (name === "numFmts") inFormats = false;
      else if (name === "cellXfs") inCellFormats = false;
    },
  });
  const dates = formatIds.map((id) => {
    if (!id) return false;
    const custom = customFormats.get(id);
    return custom ? isDateFormat(custom) : BUILT_IN_DATE_FORMATS.has(id);
  });
  return (styleIndex) => dates[styleIndex] ?? false;
}

// exceljs's test: a date or time letter outside quoted text and [bracketed] colours or locales.
function isDateFormat(format: string): boolean {
  return /[ymdhMsb]/.test(format.replace(/\[[^\]]*]/g, "").replace(/"[^"]*"/g, ""));
}

/** Excel escapes characters XML cannot hold as `_xHHHH_` (a carriage return is `_x000D_`). */
export function decodeEscapes(text: string): string {
  if (!text.includes("_x")) return text;
  return text.replace(/_x([0-9A-F]{4})_/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}
