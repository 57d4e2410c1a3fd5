import { z } from "zod";
import { invalid } from "../../lib/errors.ts";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;
const DAY_MS = 86_400_000;

/** An ISO 8601 date or date-time; without an offset it is read as UTC. */
const isoInstant = z
  .union([z.iso.date(), z.iso.datetime({ offset: true, local: true })], {
    error: "must be an ISO 8601 date (2024-05-01) or date-time (2024-05-01T12:00:00Z)",
  })
  .transform((value) => ({
    date: new Date(DATE_ONLY.test(value) || HAS_OFFSET.test(value) ? value : `${value}Z`),
    dateOnly: DATE_ONLY.test(value),
  }));

/** The filters of the leads inbox, shared by `GET /api/admin/leads`, its export and the CLI. */
export const leadFilterFields = z.object({
  since: isoInstant.optional().describe("Leads created at or after this date or date-time"),
  until: isoInstant
    .optional()
    .describe("Leads created before this date-time; a date includes that whole day"),
  source: z.string().trim().min(1).max(50).optional().describe("Exactly this source"),
  email: z.string().trim().min(1).max(254).optional().describe("This email, ignoring case"),
});

/** `since` inclusive, `until` exclusive; both are instants, `email` is lower-cased. */
export type LeadFilter = {
  since?: Date | undefined;
  until?: Date | undefined;
  source?: string | undefined;
  email?: string | undefined;
};

/** The filter the fields describe; `since` not before `until` is a 400. */
export function leadFilterOf(fields: z.output<typeof leadFilterFields>): LeadFilter {
  const since = fields.since?.date;
  const until = fields.until
    ? new Date(fields.until.date.getTime() + (fields.until.dateOnly ? DAY_MS : 0))
    : undefined;
  if (since && until && since >= until) {
    throw invalid("since must be before until", [
      { path: "querystring.since", message: "is not before until" },
    ]);
  }
  return { since, until, source: fields.source, email: fields.email?.toLowerCase() };
}

/** The bounds of a page of the leads inbox. */
export const LEAD_PAGE_MAX = 1_000;
export const LEAD_PAGE_DEFAULT = 50;
