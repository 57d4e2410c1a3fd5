import ExcelJS from "exceljs";
import type { LoadBudget } from "./load-budget.ts";
import { DocumentLoadError } from "./loader-errors.ts";
import type { LoadedSection } from "./loader-types.ts";
import { tableToSections } from "./table-sections.ts";
import { assertSafeArchive } from "./zip-guard.ts";

/** An Excel workbook, sheet by sheet in workbook order, each row rendered with its header. */
export async function loadXlsx(bytes: Uint8Array, budget: LoadBudget): Promise<LoadedSection[]> {
  const entries = await assertSafeArchive(bytes, budget.limits.maxUncompressedBytes, "XLSX");
  // exceljs reads any ZIP as an empty workbook; a file without a workbook part is not one.
  if (!entries.some((entry) => entry.name === "xl/workbook.xml")) throw notAWorkbook();
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its input as an ArrayBuffer look-alike; at runtime it hands it to JSZip,
    // which takes a Node Buffer without copying.
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await workbook.xlsx.load(buffer as unknown as Parameters<ExcelJS.Xlsx["load"]>[0]);
  } catch {
    throw notAWorkbook();
  }
  const sections: LoadedSection[] = [];
  for (const worksheet of workbook.worksheets) {
    const rows: string[][] = [];
    worksheet.eachRow({ includeEmpty: false }, (row) => {
      const values = row.values as unknown[];
      const cells: string[] = [];
      for (let column = 1; column < values.length; column++) cells.push(cellText(values[column]));
      rows.push(cells);
    });
    sections.push(...tableToSections(rows, budget, worksheet.name));
  }
  return sections;
}

/** The text a reader sees in a cell: formula results, rich text, hyperlink labels, plain dates. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return formatDate(value);
  if (typeof value !== "object") return String(value).replace(/\s+/g, " ").trim();
  if ("richText" in value && Array.isArray(value.richText)) {
    return cellText(
      value.richText.map((run: { text?: unknown }) => String(run.text ?? "")).join(""),
    );
  }
  if ("result" in value) return cellText(value.result);
  if ("formula" in value || "sharedFormula" in value) return "";
  if ("text" in value) return cellText(value.text);
  if ("error" in value) return String(value.error);
  return "";
}

// Excel stores dates without a zone and exceljs reads them as UTC; a date without a time of day
// is shown as the date alone, as Excel would.
function formatDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return "";
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.slice(0, 19).replace("T", " ");
}

function notAWorkbook(): DocumentLoadError {
  return new DocumentLoadError(
    "The XLSX could not be read: it is corrupt or not an Excel workbook",
  );
}
