import type { LoadBudget } from "./load-budget.ts";
import type { LoadedSection } from "./loader-types.ts";
import { renderRecord } from "./markdown-converter.ts";

/** Rows per section: keeps a sheet's sections a manageable size while each repeats the sheet heading. */
const ROWS_PER_SECTION = 500;

/** Sections written row by row, so a sheet's rows are never all held at once. */
export type TableSectionWriter = {
  addRow(cells: readonly string[]): void;
  /** The sections of the table, the last one completed. */
  finish(): LoadedSection[];
};

/**
 * Renders a table (CSV or sheet) as sections of "Header: value | …" lines, one line per row.
 * The first non-empty row is the header; a header cell left blank becomes "Column N". The
 * character cap is checked at every row.
 */
export function createTableSectionWriter(budget: LoadBudget, sheet?: string): TableSectionWriter {
  const heading = sheet === undefined ? "" : `# ${sheet}\n\n`;
  const metadata = sheet === undefined ? {} : { sheet };
  const sections: LoadedSection[] = [];
  let header: string[] | undefined;
  let lines: string[] = [];
  let pendingCharacters = 0;
  const flush = () => {
    sections.push(budget.add({ text: `${heading}${lines.join("\n")}`, metadata }));
    lines = [];
    pendingCharacters = 0;
  };
  return {
    addRow(cells) {
      if (!cells.some((cell) => cell !== "")) return;
      if (!header) {
        header = cells.map((name, index) => name || `Column ${index + 1}`);
        return;
      }
      const line = renderRecord(header, cells);
      lines.push(line);
      pendingCharacters += line.length + 1;
      budget.assertFits(heading.length + pendingCharacters);
      if (lines.length === ROWS_PER_SECTION) flush();
    },
    finish() {
      if (lines.length > 0) flush();
      else if (header && sections.length === 0) {
        sections.push(budget.add({ text: `${heading}${header.join(" | ")}`, metadata }));
      }
      return sections;
    },
  };
}

/** All of a table's rows at once, as `createTableSectionWriter` renders them. */
export function tableToSections(
  rows: readonly (readonly string[])[],
  budget: LoadBudget,
  sheet?: string,
): LoadedSection[] {
  const writer = createTableSectionWriter(budget, sheet);
  for (const cells of rows) writer.addRow(cells);
  return writer.finish();
}
