import { pino } from "pino";
import pretty from "pino-pretty";

export type Logger = pino.Logger;

/** `json`: one JSON object a line, for collectors; `pretty`: one coloured line, for a terminal. */
export type LogFormat = "json" | "pretty";

/**
 * A logger whose secrets and prompts are redacted wherever a field of that name appears.
 * Without a format it writes `pretty` when stdout is a terminal and `json` otherwise; without a
 * destination, to stdout.
 */
export function createLogger(
  level: string,
  format?: LogFormat,
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
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
  };
  if ((format ?? (process.stdout.isTTY ? "pretty" : "json")) === "json") {
    return destination ? pino(options, destination) : pino(options);
  }
  return pino(options, prettyStream(destination));
}

/**
 * pino-pretty in this thread, writing synchronously: a process that crashes, even by SIGKILL,
 * has written every line it logged (a worker-thread transport lost them all when measured).
 */
function prettyStream(destination: pino.DestinationStream | undefined) {
  return pretty({
    destination: destination ?? 1,
    sync: true,
    singleLine: true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname",
  });
}
