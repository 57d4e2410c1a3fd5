/*
 * Formats of the usage area beside ui/format.ts: the API counts credits to 6 decimals (a model
 * answer often costs a few millionths), and its days are UTC days, which the reader's own time
 * zone would shift by one.
 */

const credits = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 });
const utcDay = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });
const shortUtcDay = new Intl.DateTimeFormat(undefined, {
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

/** Credits to the 6 decimals the API gives: what it returned, not a rounding of it. */
export const formatCreditAmount = (value: number) => credits.format(value);

/** A UTC day (`2026-01-06` or the summary's `2026-01-06T00:00:00.000Z`) as that day. */
export const formatUtcDay = (day: string) =>
  utcDay.format(new Date(day.length === 10 ? `${day}T00:00:00Z` : day));

/** The day as a chart's axis label: month and day. */
export const formatUtcDayShort = (day: string) =>
  shortUtcDay.format(new Date(day.length === 10 ? `${day}T00:00:00Z` : day));

/**
 * The credits of every group of one summary together: each event falls in exactly one group, so
 * this is the period's total. Added in micro-credits, the API's unit, so no float drift appears.
 */
export function totalCredits(rows: ReadonlyArray<{ totalCreditsCharged: number }>): number {
  const micro = rows.reduce((sum, row) => sum + Math.round(row.totalCreditsCharged * 1e6), 0);
  return micro / 1e6;
}
