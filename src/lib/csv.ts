import { stringify } from "csv-stringify/sync";

// A spreadsheet treats a cell starting with one of these as a formula (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;

/** Prefixes a cell a spreadsheet would run as a formula with `'`, so it is shown as text. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** The header line, unquoted, with the CRLF line end of RFC 4180. */
export function csvHeaderLine(columns: readonly string[]): string {
  return `${columns.join(",")}\r\n`;
}

/**
 * RFC 4180 records: every cell quoted (internal quotes doubled), CRLF line ends, and formula-like
 * cells neutralized.
 */
export function csvRecords(rows: ReadonlyArray<readonly string[]>): string {
  if (rows.length === 0) return "";
  return stringify(
    rows.map((row) => row.map(neutralizeFormula)),
    { quoted: true, quoted_empty: true, record_delimiter: "windows" },
  );
}
