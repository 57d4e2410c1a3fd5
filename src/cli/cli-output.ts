/** Prints a value as JSON, or the given lines of text. */
export function print(json: boolean, value: unknown, lines: string[]): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${lines.join("\n")}\n`);
}

/** Rows as columns separated by two spaces, each as wide as its widest cell; "-" for null. */
export function table(header: string[], rows: (string | number | null)[][]): string[] {
  const cells = [
    header,
    ...rows.map((row) => row.map((cell) => (cell === null ? "-" : String(cell)))),
  ];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return cells.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join("  "),
  );
}

/** Where a list stopped: printed on stderr so that stdout stays the list itself. */
export function printMore(nextCursor: string | null): void {
  if (nextCursor) process.stderr.write(`More: repeat the command with --cursor ${nextCursor}\n`);
}
