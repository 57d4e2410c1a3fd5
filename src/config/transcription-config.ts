import { z } from "zod";
import { intVar } from "./env-types.ts";

const MIB = 1024 * 1024;

export const transcriptionEnvSchema = z.object({
  TRANSCRIBE_MAX_BYTES: intVar(25 * MIB, 1024, 1024 * MIB).describe(
    "Largest audio file POST /api/transcribe-audio accepts, in bytes (larger gives 413)",
  ),
  TRANSCRIBE_RATE_LIMIT_PER_MINUTE: intVar(20, 1, 1_000_000).describe(
    "POST /api/transcribe-audio calls allowed per minute per client IP (anyone may call it)",
  ),
  TRANSCRIBE_TIMEOUT_MS: intVar(120_000, 100, 600_000).describe(
    "How long one transcription may take at the provider, retries included (then 500)",
  ),
});

export function transcriptionConfig(env: z.output<typeof transcriptionEnvSchema>) {
  return {
    maxBytes: env.TRANSCRIBE_MAX_BYTES,
    rateLimitPerMinute: env.TRANSCRIBE_RATE_LIMIT_PER_MINUTE,
    timeoutMs: env.TRANSCRIBE_TIMEOUT_MS,
  };
}
