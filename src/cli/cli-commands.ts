import type { Env } from "../config/env-types.ts";

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
  /** The exit code of a mistake in its command line (default 2). */
  usageExitCode?: number;
  /**
   * The command's module, imported only when it runs: the runtime and the database drivers take
   * seconds to load, which `--help` and a typing mistake should not pay.
   */
  load(): Promise<CommandRun>;
};

const HELP_OPTION = "  -h, --help              Shows this help";
const DATABASE_NOTE = `
Uses DATABASE_URL, else the embedded database in DATA_DIR, which must exist (the server
creates it); stop the server first there: one process at a time may open DATA_DIR.`;
const LEAD_FILTERS = "[--since DATE] [--until DATE] [--source SOURCE] [--email EMAIL]";
const LEAD_FILTER_HELP = `  --since DATE            Leads created at or after this ISO 8601 date or date-time (UTC
                          without an offset)
  --until DATE            Leads created before this date-time; a date includes that day
  --source SOURCE         Leads of this source only
  --email EMAIL           Leads of this email address only (ignoring case)`;

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
only this once).
${DATABASE_NOTE}

Options:
  --name NAME             The organization's name (required)
  --owner-email EMAIL     The owner's email address
  --json                  Prints the organization, owner and key as JSON
${HELP_OPTION}`,
    load: async () => (await import("./identity-commands.ts")).orgCreate,
  },
  {
    words: ["org", "list"],
    synopsis: "[--limit N] [--cursor CURSOR] [--json]",
    summary: "Lists organizations, newest first, with their ids",
    help: `Lists organizations, newest first: id, creation time, plan, billing model and name. When
more remain, prints on stderr the --cursor of the next page.
${DATABASE_NOTE}

Options:
  --limit N               Organizations per page, 1 to 1000 (default 50)
  --cursor CURSOR         Where the previous page stopped
  --json                  Prints {data, nextCursor}, as GET /api/admin/organizations
${HELP_OPTION}`,
    load: async () => (await import("./identity-commands.ts")).orgList,
  },
  {
    words: ["key", "create"],
    synopsis: "--org ORGANIZATION_ID [--json]",
    summary: "Issues another API key to an organization's owner",
    help: `Issues another API key to the organization's owner and prints it (shown only this once).
${DATABASE_NOTE}

Options:
  --org ORGANIZATION_ID   The organization (required)
  --json                  Prints the key and its id as JSON
${HELP_OPTION}`,
    load: async () => (await import("./identity-commands.ts")).keyCreate,
  },
  {
    words: ["key", "list"],
    synopsis: "--org ORGANIZATION_ID [--json]",
    summary: "Lists an organization's API keys (prefixes, never the keys)",
    help: `Lists the organization's API keys, newest first: id, prefix, creation, last use (to the
minute) and revocation times. The keys themselves are never stored, so never shown.
${DATABASE_NOTE}

Options:
  --org ORGANIZATION_ID   The organization (required)
  --json                  Prints {data}, as GET /api/admin/organizations/{id}/api-keys
${HELP_OPTION}`,
    load: async () => (await import("./identity-commands.ts")).keyList,
  },
  {
    words: ["key", "revoke"],
    synopsis: "--org ORGANIZATION_ID --key API_KEY_ID",
    summary: "Revokes an API key",
    help: `Revokes an API key (its id, as key list shows it): it stops authenticating at once. A key
already revoked, or not of this organization, is an error.
${DATABASE_NOTE}

Options:
  --org ORGANIZATION_ID   The organization (required)
  --key API_KEY_ID        The key's id (required)
${HELP_OPTION}`,
    load: async () => (await import("./identity-commands.ts")).keyRevoke,
  },
  {
    words: ["credits", "grant"],
    synopsis: "--org ORGANIZATION_ID --amount CREDITS [--expires-at DATE_TIME] [--json]",
    summary: "Grants an organization a bucket of credits",
    help: `Grants the organization a bucket of credits, spent oldest-expiring first (docs/billing.md).
${DATABASE_NOTE}

Options:
  --org ORGANIZATION_ID   The organization (required)
  --amount CREDITS        Credits to grant, above 0 (required)
  --expires-at DATE_TIME  When the bucket expires (ISO 8601); never by default
  --json                  Prints {creditBucket} as JSON
${HELP_OPTION}`,
    load: async () => (await import("./credit-commands.ts")).creditsGrant,
  },
  {
    words: ["leads", "list"],
    synopsis: `${LEAD_FILTERS} [--limit N] [--cursor CURSOR] [--json]`,
    summary: "Lists the marketing site's leads, newest first",
    help: `Lists stored leads, newest first: id, creation time, source, email, name and company
(--json: every stored field). When more remain, prints on stderr the --cursor of the next
page.
${DATABASE_NOTE}

Options:
${LEAD_FILTER_HELP}
  --limit N               Leads per page, 1 to 1000 (default 50)
  --cursor CURSOR         Where the previous page stopped
  --json                  Prints {data, nextCursor}, as GET /api/admin/leads
${HELP_OPTION}`,
    load: async () => (await import("./lead-commands.ts")).leadsList,
  },
  {
    words: ["leads", "export"],
    synopsis: `${LEAD_FILTERS} [--output FILE]`,
    summary: "Writes the marketing site's leads as CSV",
    help: `Writes every lead the filters select as CSV, newest first, with every stored field: the
file of GET /api/admin/leads/export (cells that a spreadsheet would run as a formula start
with ').
${DATABASE_NOTE}

Options:
${LEAD_FILTER_HELP}
  --output FILE           Writes to FILE (created or replaced) instead of stdout
${HELP_OPTION}`,
    load: async () => (await import("./lead-commands.ts")).leadsExport,
  },
  {
    words: ["setup-link"],
    synopsis: "",
    summary: "Prints a one-time link to make the first owner, while nobody can sign in",
    help: `Prints a link (PUBLIC_URL/console/setup?token=…) with which one person sets their e-mail,
name and password and becomes owner of the Default organization and instance administrator.
Every link printed works for 7 days; the first one used ends them all. Once somebody can
sign in, prints why no link is needed and exits with code 1.
${DATABASE_NOTE}

Options:
${HELP_OPTION}`,
    load: async () => (await import("./people-commands.ts")).setupLink,
  },
  {
    words: ["user", "create"],
    synopsis: "--email EMAIL --org ORGANIZATION_ID --role owner|admin|member|viewer [--json]",
    summary: "Invites a person to an organization and prints the invitation link",
    help: `Invites EMAIL to the organization with the role and prints the one-time link that accepts
it (7 days): a new person chooses a password there, an existing user signs in or gives
theirs. Mailed too when SMTP_URL is set.
${DATABASE_NOTE}

Options:
  --email EMAIL           The person's e-mail address (required)
  --org ORGANIZATION_ID   The organization (required)
  --role ROLE             owner, admin, member or viewer (required)
  --json                  Prints {id, email, role, expiresAt, acceptUrl, mail} as JSON
${HELP_OPTION}`,
    load: async () => (await import("./people-commands.ts")).userCreate,
  },
  {
    words: ["admin", "grant"],
    synopsis: "--email EMAIL",
    summary: "Makes a user an instance administrator (leads, organizations)",
    help: `Lets the user with this e-mail use the instance's administration (/api/admin/*) with their
session, as the first owner can.
${DATABASE_NOTE}

Options:
  --email EMAIL           The user's e-mail address (required)
${HELP_OPTION}`,
    load: async () => (await import("./people-commands.ts")).adminGrant,
  },
  {
    words: ["eval", "run"],
    synopsis:
      "--set ID [--url URL --key KEY] [--baseline RUN_ID] [--min-pass-rate R] [--json] [--junit FILE]",
    summary: "Runs an eval set against a running service: a regression gate for CI",
    help: `Starts a run of the eval set on the service at URL (POST /api/eval-runs), waits for it,
prints its summary and, with --baseline, the cases it fixed or regressed against that run.
Exit code 0 when it passes; 2 when a case that passed in the baseline run fails now, or the
pass rate is under R; 1 when it could not run (bad options, the service refused or could
not be reached, the run failed, e.g. out of credits). See docs/evaluation.md.

Options:
  --set ID                The eval set (required)
  --url URL               The service's dashboard API (default AGENTDESK_URL, else
                          http://127.0.0.1:PORT, PORT defaulting to 3000)
  --key KEY               An API key with the query and agents:read scopes (default
                          AGENTDESK_API_KEY)
  --baseline RUN_ID       A run of the same set to compare with: a regression exits 2
  --min-pass-rate R       The least share of passed cases, 0 to 1: under it exits 2
  --agent-version N       Replays this version of the agent instead of the current one
  --judge-model MODEL     Scores each case's expectedAnswer with this model
  --timeout SECONDS       Gives up waiting after this long (default 1800): exit 1
  --json                  Prints {run, comparison, passed, reasons} as JSON
  --junit FILE            Writes the results as a JUnit XML report to FILE
${HELP_OPTION}`,
    usageExitCode: 1,
    load: async () => (await import("./eval-commands.ts")).evalRun,
  },
];

const invocation = (command: Command) =>
  ["agentdesk", ...command.words, command.synopsis].filter(Boolean).join(" ");

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
