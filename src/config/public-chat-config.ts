import { z } from "zod";
import { intVar } from "./env-types.ts";

export const publicChatEnvSchema = z.object({
  PUBLIC_CHAT_RATE_LIMIT_PER_MINUTE: intVar(20, 1, 1_000_000).describe(
    "Public chat messages allowed per minute per visitor id",
  ),
  PUBLIC_CHAT_IP_RATE_LIMIT_PER_MINUTE: intVar(60, 1, 1_000_000).describe(
    "Public chat messages allowed per minute per client IP (all visitors behind it together)",
  ),
  PUBLIC_CHAT_MAX_QUESTION_CHARS: intVar(2_000, 1, 100_000).describe(
    "Longest question the public chat accepts, in characters (longer gives 400)",
  ),
});

export function publicChatConfig(env: z.output<typeof publicChatEnvSchema>) {
  return {
    visitorRateLimitPerMinute: env.PUBLIC_CHAT_RATE_LIMIT_PER_MINUTE,
    ipRateLimitPerMinute: env.PUBLIC_CHAT_IP_RATE_LIMIT_PER_MINUTE,
    maxQuestionChars: env.PUBLIC_CHAT_MAX_QUESTION_CHARS,
  };
}
