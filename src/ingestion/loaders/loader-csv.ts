import { parse } from "csv-parse/sync";
import type { LoadBudget } from "./load-budget.ts";
import { DocumentLoadError } from "./loader-errors.ts";
import { decodeOrFail } from "./loader-text.ts";
import type { LoadedSection } from "./loader-types.ts";
import { tableToSections } from "./table-sections.ts";

const CANDIDATE_DELIMITERS = [",", ";", "\t", "|"] as const;

/** A CSV (or TSV, or semicolon-separated export) as rows rendered with their header. */
export async function loadCsv(bytes: Uint8Array, budget: LoadBudget): Promise<LoadedSection[]> {
  const text = decodeOrFail(bytes, "CSV file");
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter: guessDelimiter(text),
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    const reason = error instanceof Error ? `: ${error.message}` : "";
    throw new DocumentLoadError(`The CSV file could not be parsed${reason}`);
  }
  return tableToSections(rows, budget);
}

// Excel writes ";" in locales where "," is the decimal separator, and TSV uses tabs; the header
// line says which one this file uses.
function guessDelimiter(text: string): string {
  const firstLine = text.slice(0, text.indexOf("\n") === -1 ? undefined : text.indexOf("\n"));
  const unquoted = firstLine.replace(/"[^"]*"/g, "");
  let best: string = ",";
  let bestCount = 0;
  for (const delimiter of CANDIDATE_DELIMITERS) {
    const count = unquoted.split(delimiter).length - 1;
    if (count > bestCount) {
      best = delimiter;
      bestCount = count;
    }
  }
  return best;
}
