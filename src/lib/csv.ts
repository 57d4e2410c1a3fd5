import { type SQL, sql } from "drizzle-orm";

/** The header line, unquoted, with the CRLF line end of RFC 4180. */
export function csvHeaderLine(columns: readonly string[]): string {
  return `${columns.join(",")}\r\n`;
}

/**
 * A text value as an RFC 4180 cell, computed by the database: always quoted, internal quotes
 * doubled. Large exports format their records in SQL, so each row reaches the service as one
 * string instead of being mapped to objects, dates and arrays and joined again (which is what
 * most of a 100,000-row export's memory went to).
 */
function csvCellSql(value: SQL): SQL {
  return sql`'"' || replace(${value}, '"', '""') || '"'`;
}

/**
 * The value with `'` in front when a spreadsheet would run it as a formula: a first character
 * `=`, `+`, `-`, `@`, tab or carriage return (OWASP "CSV injection"), so it is shown as text.
 */
export function neutralizedFormulaSql(value: SQL): SQL {
  return sql`case when left(${value}, 1) in ('=', '+', '-', '@', chr(9), chr(13))
    then '''' || ${value} else ${value} end`;
}

/** One CSV record in SQL: the cells, comma-separated, and a CRLF line end. */
export function csvRecordSql(cells: SQL[]): SQL {
  return sql`${sql.join(cells.map(csvCellSql), sql` || ',' || `)} || chr(13) || chr(10)`;
}
