import type { Env } from "../config/env-types.ts";

/** A mistake in the command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Runs one command with its arguments (after the command's words) and the environment. */
type CommandRun = (args: string[], env: Env) => Promise<void>;

export type Command = {
  /** What selects it: `["serve"]`, `["org", "create"]`. */
  words: string[];
  /** Its arguments, as the general usage lists them. */
  synopsis: string;
  summary: string;
  /** What `agentdesk <command> --help` prints below the usage line. */
  help: string;
  /**
   * The command's module, imported only when it runs: the runtime and the database drivers take
   * seconds to load, which `--help` and a typing mistake should not pay.
   */
  load(): Promise<CommandRun>;
};

const HELP_OPTION = "  -h, --help              Shows this help";

export const COMMANDS: Command[] = [
  {
    words: ["serve"],
    synopsis: "[--role all|api|worker]",
    summary: "Runs the service: both HTTP listeners and the background worker",
    help: `Runs the dashboard API (PORT) and marketing-site (SITE_PORT) listeners and the background
worker, or one of the two (--role). Prints the listeners' URLs once they listen; SIGTERM or
SIGINT stops accepting, finishes what is in flight and exits 0.

Options:
  --role all|api|worker   all (the default): both listeners and the worker;
                          api: the listeners only; worker: the background jobs only,
                          with health, readiness and /metrics on WORKER_PORT
${HELP_OPTION}`,
    load: async () => (await import("./serve-command.ts")).serve,
  },
  {
    words: ["org", "create"],
    synopsis: "--name NAME [--owner-email EMAIL] [--json]",
    summary: "Creates an organization, its owner and its first API key",
    help: `Creates an organization with its owner and prints the organization's first API key (shown
only this once). With the embedded database, stop the server first: one process at a
time may open DATA_DIR.

Options:
  --name NAME             The organization's name (required)
  --owner-email EMAIL     The owner's email address
  --json                  Prints the organization, owner and key as JSON
${HELP_OPTION}`,
    load: async () => (await import("./identity-commands.ts")).orgCreate,
  },
  {
    words: ["key", "create"],
    synopsis: "--org ORGANIZATION_ID [--json]",
    summary: "Issues another API key to an organization's owner",
    help: `Issues another API key to the organization's owner and prints it (shown only this once).
With the embedded database, stop the server first: one process at a time may open
DATA_DIR.

Options:
  --org ORGANIZATION_ID   The organization (required)
  --json                  Prints the key and its id as JSON
${HELP_OPTION}`,
    load: async () => (await import("./identity-commands.ts")).keyCreate,
  },
];

const invocation = (command: Command) => `agentdesk ${command.words.join(" ")} ${command.synopsis}`;

/** What `agentdesk --help` prints: every command, and the general options. */
export function generalUsage(): string {
  const commands = COMMANDS.map((command) => `  ${invocation(command)}\n      ${command.summary}`);
  return `Usage:
${commands.join("\n")}

Options:
  -h, --help              Shows this help; after a command, that command's help
  -v, --version           Prints the version

Configuration comes from environment variables: see "Configuration" in README.md.`;
}

/** What `agentdesk <command> --help` prints. */
export function commandUsage(command: Command): string {
  return `Usage: ${invocation(command)}\n\n${command.help}`;
}
