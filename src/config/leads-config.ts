import { z } from "zod";
import { intVar, optionalString, optionalUrl } from "./env-types.ts";

export const leadsEnvSchema = z.object({
  LEAD_RATE_LIMIT_PER_MINUTE: intVar(5, 1, 1_000_000),
  LEAD_NOTIFY_URL: optionalUrl().describe("Receives a POST for every new lead"),
  SITE_ALLOWED_ORIGINS: optionalString().describe("Comma-separated origins allowed by CORS"),
});

export function leadsConfig(env: z.output<typeof leadsEnvSchema>) {
  return {
    rateLimitPerMinute: env.LEAD_RATE_LIMIT_PER_MINUTE,
    notifyUrl: env.LEAD_NOTIFY_URL,
    allowedOrigins: (env.SITE_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
  };
}
