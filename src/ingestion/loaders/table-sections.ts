import type { LoadBudget } from "./load-budget.ts";
import type { LoadedSection } from "./loader-types.ts";
import { renderRecord } from "./markdown-converter.ts";

/** Rows per section: keeps a sheet's sections a manageable size while each repeats the sheet heading. */
const ROWS_PER_SECTION = 500;

/**
 * Renders a table (CSV or sheet) as sections of "Header: value | …" lines, one line per row.
 * The first non-empty row is the header; a header cell left blank becomes "Column N".
 */
export function tableToSections(
  rows: readonly (readonly string[])[],
  budget: LoadBudget,
  sheet?: string,
): LoadedSection[] {
  const nonEmpty = rows.filter((cells) => cells.some((cell) => cell !== ""));
  const [headerRow, ...records] = nonEmpty;
  if (!headerRow) return [];
  const header = headerRow.map((name, index) => name || `Column ${index + 1}`);
  const heading = sheet === undefined ? "" : `# ${sheet}\n\n`;
  const metadata = sheet === undefined ? {} : { sheet };
  if (records.length === 0) {
    return [budget.add({ text: `${heading}${header.join(" | ")}`, metadata })];
  }
  const sections: LoadedSection[] = [];
  for (let start = 0; start < records.length; start += ROWS_PER_SECTION) {
    const lines = records
      .slice(start, start + ROWS_PER_SECTION)
      .map((cells) => renderRecord(header, cells));
    sections.push(budget.add({ text: `${heading}${lines.join("\n")}`, metadata }));
  }
  return sections;
}
