/**
 * Cursors of the shape the newest-first lists return (src/lib/page-cursor.ts: base64url of
 * `<timestamptz as PostgreSQL prints it>|<id>`) naming times PostgreSQL refuses. A list must
 * answer them 400, not hand them to the database.
 */
export const IMPOSSIBLE_CURSORS: ReadonlyArray<readonly [name: string, cursor: string]> = [
  ["of 30 February", "2024-02-30 10:00:00+00|abc"],
  ["of year 0", "0000-01-01 00:00:00+00|abc"],
  ["at hour 25", "2024-01-01 25:00:00+00|abc"],
  ["99 hours off UTC", "2024-01-01 10:00:00+99|abc"],
].map(([name, text]) => [`a cursor ${name}`, Buffer.from(text!).toString("base64url")] as const);
