import { z } from "zod";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;
const DAY_MS = 86_400_000;

/** The first instant a parameter may name. */
const EARLIEST_MS = Date.UTC(1970, 0, 1);
/**
 * The first instant past the range. PostgreSQL has no year 0 and JavaScript writes the years
 * past 9999 as "+010000", which PostgreSQL refuses: both used to reach the database and fail.
 */
const PAST_RANGE_MS = Date.UTC(10_000, 0, 1);

const OUT_OF_RANGE = "must be an instant of the years 1970 to 9999 (UTC)";

/** The instant a date-time sent without an offset stands for: it is read as UTC. */
const instantOf = (value: string) =>
  new Date(DATE_ONLY.test(value) || HAS_OFFSET.test(value) ? value : `${value}Z`);

/** Refuses, as an issue of the field being parsed, an instant outside 1970 to 9999 (UTC). */
function withinRange(date: Date, value: string, context: z.RefinementCtx): boolean {
  const time = date.getTime();
  if (time >= EARLIEST_MS && time < PAST_RANGE_MS) return true;
  context.issues.push({ code: "custom", message: OUT_OF_RANGE, input: value });
  return false;
}

/**
 * A date parameter holding an ISO 8601 date or date-time; without an offset it is read as UTC.
 * Parsed to the text sent, the instant and whether it was a bare date (for bounds that include
 * a whole day). Every date the API takes in a query string goes through it: years 1970 to 9999.
 */
export const isoInstant = z
  .union([z.iso.date(), z.iso.datetime({ offset: true, local: true })], {
    error: "must be an ISO 8601 date (2024-05-01) or date-time (2024-05-01T12:00:00Z)",
  })
  .transform((value, context) => {
    const date = instantOf(value);
    if (!withinRange(date, value, context)) return z.NEVER;
    return { text: value, date, dateOnly: DATE_ONLY.test(value) };
  })
  .describe("ISO 8601 date or date-time (UTC without an offset), years 1970 to 9999");

export type IsoInstant = z.output<typeof isoInstant>;

/**
 * A date-time with an offset (`2030-01-01T00:00:00Z`), parsed to its instant, in the same years
 * as isoInstant: for instants a client sets (a credit bucket's expiry) rather than filters by.
 */
export const isoDateTime = z.iso
  .datetime({ offset: true })
  .transform((value, context) => {
    const date = new Date(value);
    return withinRange(date, value, context) ? date : z.NEVER;
  })
  .describe("ISO 8601 date-time with an offset, years 1970 to 9999");

/**
 * An exclusive upper bound: `time`, or the last millisecond of the year 9999 where `time` is
 * past it (a bound that covers the whole of 9999-12-31), which the database can still be given.
 * The rows such bounds filter are stamped by the service's clock, never in that millisecond.
 */
export const exclusiveBound = (time: number): Date => new Date(Math.min(time, PAST_RANGE_MS - 1));

/** An inclusive upper bound as an exclusive instant: a bare date includes that whole day. */
export const endOf = (bound: IsoInstant): Date =>
  bound.dateOnly ? exclusiveBound(bound.date.getTime() + DAY_MS) : bound.date;
