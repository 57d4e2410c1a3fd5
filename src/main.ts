import { readFileSync } from "node:fs";
import { COMMANDS, type Command, commandUsage, generalUsage } from "./cli/cli-commands.ts";
import { UsageError } from "./cli/cli-options.ts";

const HELP = new Set(["--help", "-h"]);
/** Errors whose message is written for the operator (they name the variable, lock or directory). */
const OPERATOR_ERRORS = new Set(["ConfigError", "DataDirLockedError", "NoDatabaseError"]);

class CommandLineError extends Error {
  constructor(
    message: string,
    readonly usage: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

function findCommand(argv: string[]): Command | undefined {
  return COMMANDS.find((command) => command.words.every((word, index) => argv[index] === word));
}

/** Commands that start with these words (`org` → `org create`), for `agentdesk org --help`. */
function groupUsage(words: string[]): string | null {
  const group = COMMANDS.filter((command) =>
    words.every((word, index) => command.words[index] === word),
  );
  return group.length > 0 ? group.map(commandUsage).join("\n\n") : null;
}

function version(): string {
  const packageJson = readFileSync(new URL("../package.json", import.meta.url), "utf8");
  return (JSON.parse(packageJson) as { version: string }).version;
}

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === undefined) throw new CommandLineError("No command given", generalUsage());
  if (HELP.has(first) || (first === "help" && rest.length === 0)) {
    process.stdout.write(`${generalUsage()}\n`);
    return;
  }
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${version()}\n`);
    return;
  }
  const words = first === "help" ? rest : argv;
  const command = findCommand(words);
  const asksHelp = first === "help" || words.some((arg) => HELP.has(arg));
  if (!command) {
    const leading = words.filter((arg) => !arg.startsWith("-"));
    const group = asksHelp ? groupUsage(leading) : null;
    if (group) {
      process.stdout.write(`${group}\n`);
      return;
    }
    throw new CommandLineError(`Unknown command "${words.join(" ")}"`, generalUsage());
  }
  if (asksHelp) {
    process.stdout.write(`${commandUsage(command)}\n`);
    return;
  }
  const run = await command.load();
  try {
    // The one place the environment is read; the configuration parses it (README: Configuration).
    await run(argv.slice(command.words.length), process.env);
  } catch (error) {
    // parseArgs throws TypeErrors with these codes for unknown options and stray arguments.
    const code = (error as { code?: unknown } | null)?.code;
    const parseFailure = typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_");
    if (error instanceof UsageError || parseFailure) {
      throw new CommandLineError(
        (error as Error).message,
        commandUsage(command),
        command.usageExitCode,
      );
    }
    throw error;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CommandLineError) {
    process.stderr.write(`${error.message}\n\n${error.usage}\n`);
    process.exit(error.exitCode);
  }
  const failure = error instanceof Error ? error : new Error(String(error));
  const line = OPERATOR_ERRORS.has(failure.name) ? failure.message : `error: ${summary(failure)}`;
  process.stderr.write(`${line}\n`);
  process.exit(1);
});

/**
 * One line, never a stack trace: the message's first line, and its cause's when that says
 * something more (a driver's error under a query builder's "Failed query: …").
 */
function summary(error: Error): string {
  const firstLine = (text: string) => text.split("\n", 1)[0]!.trim();
  const message = firstLine(error.message);
  const cause = error.cause instanceof Error ? firstLine(error.cause.message) : "";
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}
