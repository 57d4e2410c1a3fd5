import { z } from "zod";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;
const DAY_MS = 86_400_000;

/**
 * A query parameter holding an ISO 8601 date or date-time; without an offset it is read as UTC.
 * Parsed to the instant and whether it was a bare date, for bounds that include a whole day.
 */
export const isoInstant = z
  .union([z.iso.date(), z.iso.datetime({ offset: true, local: true })], {
    error: "must be an ISO 8601 date (2024-05-01) or date-time (2024-05-01T12:00:00Z)",
  })
  .transform((value) => ({
    date: new Date(DATE_ONLY.test(value) || HAS_OFFSET.test(value) ? value : `${value}Z`),
    dateOnly: DATE_ONLY.test(value),
  }));

/** An inclusive upper bound as an exclusive instant: a bare date includes that whole day. */
export const endOf = (bound: z.output<typeof isoInstant>): Date =>
  bound.dateOnly ? new Date(bound.date.getTime() + DAY_MS) : bound.date;
