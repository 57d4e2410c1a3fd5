import { pino } from "pino";
import pretty from "pino-pretty";

export type Logger = pino.Logger;

/** The message of the one line logged per request (src/http/plugins/access-log.ts). */
export const ACCESS_LOG_MESSAGE = "request";

/** The access line's fields that its pretty form shows as its message. */
const ACCESS_FIELDS = ["method", "route", "status", "durationMs", "aborted"] as const;

/** `json`: one JSON object a line, for collectors; `pretty`: one coloured line, for a terminal. */
export type LogFormat = "json" | "pretty";

/**
 * A logger whose secrets and prompts are redacted wherever a field of that name appears.
 * Without a format it writes `pretty` when stdout is a terminal and `json` otherwise; without a
 * destination, to stdout (a `pretty` destination is piped into, so it must be a stream).
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
        "apiKey",
        "password",
        "token",
        "prompt",
        "systemPrompt",
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
  const isAccessLine = (log: Record<string, unknown>) => log.msg === ACCESS_LOG_MESSAGE;
  // On the access line these fields are the message; a prettifier that gives undefined drops
  // its field from the line (single-line mode), and on other lines they stay as they are.
  const shownInMessage = (value: unknown, _key: string, log: Record<string, unknown>) =>
    isAccessLine(log) ? undefined : value;
  return pretty({
    destination: destination ?? 1,
    sync: true,
    singleLine: true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname",
    messageFormat: (log, messageKey) =>
      isAccessLine(log)
        ? `${log.method} ${log.route} ${log.status ?? "-"} ${log.durationMs} ms${log.aborted ? " (aborted)" : ""}`
        : String(log[messageKey] ?? ""),
    customPrettifiers: Object.fromEntries(
      ACCESS_FIELDS.map((field) => [field, shownInMessage]),
    ) as pretty.PrettyOptions["customPrettifiers"],
  });
}
