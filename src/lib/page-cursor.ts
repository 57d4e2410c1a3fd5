import { invalid } from "./errors.ts";

/** Where a newest-first page ended: the exact (microsecond) timestamp as text, and the id. */
export type PageCursor = { createdAt: string; id: string };

// What PostgreSQL prints for a timestamptz: "2024-05-01 12:00:00.123456+00".
const TIMESTAMP_TEXT =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * True when `text` is a time PostgreSQL printed: the shape alone would let through a 30 February
 * or an offset of 99 hours, which the database refuses with an error of its own.
 */
function isTimestampText(text: string): boolean {
  const match = TIMESTAMP_TEXT.exec(text);
  if (!match) return false;
  // The offset's minutes are the one optional part.
  const [
    year = 0,
    month = 0,
    day = 0,
    hour = 0,
    minute = 0,
    second = 0,
    offset = 0,
    offsetMinutes = 0,
  ] = match.slice(1).map((part) => Number(part ?? 0));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    year >= 1 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    offset < 16 &&
    offsetMinutes < 60
  );
}

/** An opaque list cursor: base64url of the last item's exact createdAt and id. */
function encodePageCursor(cursor: PageCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`).toString("base64url");
}

/** The cursor a list returned, or a 400 naming `querystring.cursor`. */
export function decodePageCursor(cursor: string): PageCursor {
  const [createdAt, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || !id || !ID.test(id) || !createdAt || !isTimestampText(createdAt)) {
    throw invalid("cursor is not a cursor this endpoint returned", [
      { path: "querystring.cursor", message: "is malformed" },
    ]);
  }
  return { createdAt, id };
}

/** Keeps `limit` of the `limit + 1` rows read, and the cursor of the next page when there is one. */
export function pageOf<Row extends { cursorAt: string; id: string }>(
  rows: Row[],
  limit: number,
): { rows: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor:
      rows.length > limit && last
        ? encodePageCursor({ createdAt: last.cursorAt, id: last.id })
        : null,
  };
}
