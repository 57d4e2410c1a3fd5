import { invalid } from "../../lib/errors.ts";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;
const DAY_MS = 86_400_000;

/** An instant from an ISO 8601 date or date-time; one without a zone is read as UTC. */
function instantOf(name: string, value: string): Date {
  const instant = DATE_ONLY.test(value)
    ? new Date(`${value}T00:00:00.000Z`)
    : new Date(HAS_ZONE.test(value) ? value : `${value}Z`);
  if (Number.isNaN(instant.getTime())) {
    throw invalid(`${name} is not an ISO 8601 date`, [
      { path: `querystring.${name}`, message: "is not an ISO 8601 date" },
    ]);
  }
  return instant;
}

/**
 * The half-open range [from, to) that startDate and endDate describe. Both ends are inclusive:
 * a date-time endDate includes that millisecond, a date-only endDate its whole UTC day.
 * Throws 400 INVALID_REQUEST when endDate is before startDate.
 */
export function rangeOf(startDate?: string, endDate?: string): { from?: Date; to?: Date } {
  const from = startDate === undefined ? undefined : instantOf("startDate", startDate);
  let to: Date | undefined;
  if (endDate !== undefined) {
    const end = instantOf("endDate", endDate);
    to = new Date(end.getTime() + (DATE_ONLY.test(endDate) ? DAY_MS : 1));
  }
  if (from && to && to.getTime() <= from.getTime()) {
    throw invalid("endDate must not be before startDate", [
      { path: "querystring.endDate", message: "is before startDate" },
    ]);
  }
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
