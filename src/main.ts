import { parseArgs } from "node:util";
import { createRuntime, openConfiguredDatabase, type Role } from "./app/runtime.ts";
import { createIdentityServices } from "./app/services.ts";
import { ConfigError, parseConfig } from "./config/index.ts";
import { createLogger } from "./lib/logger.ts";

const USAGE = `Usage:
  agentdesk serve [--role all|api|worker]
  agentdesk org create --name NAME [--owner-email EMAIL] [--json]
  agentdesk key create --org ORGANIZATION_ID [--json]`;

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { role: { type: "string", default: "all" } } });
  const role = values.role as Role;
  if (!["all", "api", "worker"].includes(role)) throw new UsageError(`Unknown role "${role}"`);
  const config = parseConfig(process.env);
  const logger = createLogger(config.server.logLevel, config.server.logFormat);
  const runtime = await createRuntime({ config, logger, role });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const deadline = setTimeout(() => process.exit(1), config.server.shutdownTimeoutMs + 5_000);
    deadline.unref();
    await runtime.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  const { host, port, sitePort } = config.server;
  const lines: string[] = [];
  if (runtime.api && runtime.site) {
    const apiUrl = await runtime.api.listen({ host, port });
    const siteUrl = await runtime.site.listen({ host, port: sitePort });
    lines.push(`agentdesk dashboard API: ${apiUrl}  (docs: ${apiUrl}/api/docs)`);
    lines.push(`agentdesk marketing site: ${siteUrl}`);
  }
  if (role !== "api") lines.push("agentdesk worker: running");
  if (role !== "worker" && config.server.bootstrapDefaultOrganization) {
    const created = await runtime.services.organizations.ensureDefaultOrganization();
    if (created) {
      lines.push(
        "",
        `Created the "Default" organization (${created.organization.id}).`,
        "Its API key, shown only this once:",
        "",
        `  ${created.apiKey}`,
        "",
      );
    }
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function withIdentity<T>(
  run: (services: ReturnType<typeof createIdentityServices>) => Promise<T>,
): Promise<T> {
  const config = parseConfig(process.env);
  const logger = createLogger("warn", config.server.logFormat);
  const database = await openConfiguredDatabase(config, { poolSize: 2 });
  try {
    return await run(createIdentityServices(database.db, logger));
  } finally {
    await database.close();
  }
}

async function orgCreate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: "string" },
      "owner-email": { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.name?.trim()) throw new UsageError("--name is required");
  const created = await withIdentity(({ organizations }) =>
    organizations.createOrganization({
      name: values.name!.trim(),
      ownerEmail: values["owner-email"],
    }),
  );
  print(values.json ?? false, created, [
    `Organization ${created.organization.name} (${created.organization.id})`,
    `API key (shown once): ${created.apiKey}`,
  ]);
}

async function keyCreate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { org: { type: "string" }, json: { type: "boolean", default: false } },
  });
  if (!values.org) throw new UsageError("--org is required");
  const issued = await withIdentity(({ organizations }) => organizations.issueApiKey(values.org!));
  print(values.json ?? false, issued, [`API key (shown once): ${issued.apiKey}`]);
}

function print(json: boolean, value: unknown, lines: string[]): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${lines.join("\n")}\n`);
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [command, subcommand, ...rest] = argv;
  if (command === "serve") return serve(argv.slice(1));
  if (command === "org" && subcommand === "create") return orgCreate(rest);
  if (command === "key" && subcommand === "create") return keyCreate(rest);
  throw new UsageError(command ? `Unknown command "${argv.join(" ")}"` : "No command given");
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const known = error instanceof ConfigError || (error as Error).name === "DataDirLockedError";
  process.stderr.write(`${known ? (error as Error).message : (error as Error).stack}\n`);
  process.exit(1);
});
