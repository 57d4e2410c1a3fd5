import { pino } from "pino";

export type Logger = pino.Logger;

/** JSON-lines logger; secrets and prompts are redacted wherever a field of that name appears. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        "*.apiKey",
        "*.password",
        "*.token",
        "*.prompt",
        "*.systemPrompt",
      ],
      censor: "[redacted]",
    },
  });
}
