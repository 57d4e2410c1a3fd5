import { z } from "zod";
import { intVar } from "./env-types.ts";

export const annotationsEnvSchema = z.object({
  ANNOTATION_ANONYMOUS_RATE_LIMIT_PER_MINUTE: intVar(30, 1, 1_000_000).describe(
    "Anonymous POST /api/annotations allowed per minute per client IP (public agents)",
  ),
});

export function annotationsConfig(env: z.output<typeof annotationsEnvSchema>) {
  return { anonymousRateLimitPerMinute: env.ANNOTATION_ANONYMOUS_RATE_LIMIT_PER_MINUTE };
}
