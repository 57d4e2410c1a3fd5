import { z } from "zod";

/**
 * One field of POST /api/leads, written once: the validator the handler runs, and the schema
 * the OpenAPI document shows (the validator's trims, nulls and messages are not documented).
 */
type LeadField = { validator: z.ZodType; documented: z.ZodType };

/** What the marketing-site forms may send; the bounds are the spec's Lead table. */
const required = (field: string, max: number) => ({
  validator: z
    .string({
      error: (issue) =>
        issue.input == null ? `${field} is required` : `${field} must be a string`,
    })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`),
  documented: z.string().max(max),
});

/** Optional text: empty strings and null mean "not given". */
const optional = (field: string, max: number) => ({
  validator: z
    .string({ error: `${field} must be a string` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : null)),
  documented: z.string().max(max).optional(),
});

const digitCount = (value: string) => value.replace(/\D/g, "").length;

const EMAIL_MAX = 254;
const name = required("name", 100);
const email = required("email", EMAIL_MAX);
const phone = optional("phone", 30);

const leadFields = {
  name,
  email: {
    validator: email.validator.pipe(z.email({ error: "email is not a valid email address" })),
    documented: z.email().max(EMAIL_MAX),
  },
  phone: {
    validator: phone.validator.refine(
      (value) => value === null || (digitCount(value) >= 7 && digitCount(value) <= 20),
      "phone must contain between 7 and 20 digits",
    ),
    documented: phone.documented,
  },
  source: optional("source", 50),
  postSlug: optional("postSlug", 200),
  company: optional("company", 150),
  industry: optional("industry", 60),
  companySize: optional("companySize", 40),
  area: optional("area", 60),
  hoursPerWeek: optional("hoursPerWeek", 40),
  aiToday: optional("aiToday", 80),
  score: {
    validator: z
      .number({ error: "score must be a number" })
      .nullish()
      .transform((value) => (value == null ? null : Math.min(999, Math.max(0, value)))),
    documented: z.number().optional().describe("0 to 999; values outside are clamped"),
  },
  levelLabel: optional("levelLabel", 60),
  recommendedAgent: optional("recommendedAgent", 150),
} satisfies Record<string, LeadField>;

type LeadFields = typeof leadFields;

function validatorsOf(fields: LeadFields): { [K in keyof LeadFields]: LeadFields[K]["validator"] } {
  return Object.fromEntries(
    Object.entries(fields).map(([key, field]) => [key, field.validator]),
  ) as { [K in keyof LeadFields]: LeadFields[K]["validator"] };
}

function documentedOf(fields: LeadFields): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.documented]));
}

const leadInputSchema = z.object(validatorsOf(leadFields));

/**
 * The body of POST /api/leads as the OpenAPI document shows it, derived from the fields the
 * handler validates (the route documents it; `parseLeadInput` validates).
 */
export const leadBody = z
  .object(documentedOf(leadFields))
  .describe("A sales lead from a site form");

export type LeadInput = z.output<typeof leadInputSchema>;

const HINTS: Record<string, string> = {
  name: "Send a non-empty name of at most 100 characters.",
  email: "Send a valid email address such as jane@example.com (at most 254 characters).",
  phone: "Send a phone number with 7 to 20 digits, e.g. +1 555 010 2030.",
  score: "Send score as a number; values outside 0..999 are clamped.",
};

export type LeadValidationFailure = { message: string; hint: string };

/** Validates a parsed JSON body; the first problem is reported, in field order. */
export function parseLeadInput(
  body: unknown,
): { ok: true; lead: LeadInput } | ({ ok: false } & LeadValidationFailure) {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return {
      ok: false,
      message: "The request body must be a JSON object",
      hint: 'Send a JSON object such as {"name": "Jane", "email": "jane@example.com"}.',
    };
  }
  const result = leadInputSchema.safeParse(body);
  if (result.success) return { ok: true, lead: result.data };
  const issue = result.error.issues[0]!;
  const field = String(issue.path[0] ?? "");
  return {
    ok: false,
    message: issue.message,
    hint: HINTS[field] ?? `Check the field "${field}" against the documented limits.`,
  };
}
