import { invalid } from "../../lib/errors.ts";
import { exclusiveBound, type IsoInstant } from "../../lib/iso-instant.ts";

const DAY_MS = 86_400_000;

/**
 * The half-open range [from, to) that startDate and endDate describe. Both ends are inclusive:
 * a date-time endDate includes that millisecond, a date-only endDate its whole UTC day.
 * Throws 400 INVALID_REQUEST when endDate is before startDate.
 */
export function rangeOf(startDate?: IsoInstant, endDate?: IsoInstant): { from?: Date; to?: Date } {
  const from = startDate?.date;
  const end = endDate && endDate.date.getTime() + (endDate.dateOnly ? DAY_MS : 1);
  if (from && end !== undefined && end <= from.getTime()) {
    throw invalid("endDate must not be before startDate", [
      { path: "querystring.endDate", message: "is before startDate" },
    ]);
  }
  return { ...(from ? { from } : {}), ...(end !== undefined ? { to: exclusiveBound(end) } : {}) };
}
