import { z } from "zod";
import { invalid } from "../../lib/errors.ts";
import { endOf, isoInstant } from "../../lib/iso-instant.ts";

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
  const until = fields.until ? endOf(fields.until) : undefined;
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
