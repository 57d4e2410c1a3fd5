import { z } from "zod";

export type Env = Record<string, string | undefined>;

/** An optional integer env var with bounds and a default. */
export const intVar = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** An optional string env var where an empty string means "not set". */
export const optionalString = () =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

export const optionalUrl = () =>
  optionalString().pipe(
    z
      .string()
      .refine(
        (value) => /^https?:\/\//i.test(value) && URL.canParse(value),
        "must be an absolute http(s) URL",
      )
      .optional(),
  );

/** Accepts true/false/1/0/yes/no. */
export const boolVar = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"])
    .optional()
    .transform((value) => (value === undefined ? fallback : ["true", "1", "yes"].includes(value)));
