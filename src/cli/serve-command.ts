import { parseArgs } from "node:util";
import { createRuntime, type Role } from "../app/runtime.ts";
import type { Env } from "../config/env-types.ts";
import { parseConfig } from "../config/index.ts";
import { createLogger } from "../lib/logger.ts";
import { UsageError } from "./cli-options.ts";

const ROLES: Role[] = ["all", "api", "worker"];

/** `agentdesk serve`: builds the runtime, listens, prints the banner, stops on SIGTERM/SIGINT. */
export async function serve(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({ args, options: { role: { type: "string", default: "all" } } });
  const role = values.role as Role;
  if (!ROLES.includes(role)) throw new UsageError(`Unknown role "${role}"`);
  const config = parseConfig(env);
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

  const { host, port, sitePort, workerPort } = config.server;
  const lines: string[] = [];
  if (runtime.api && runtime.site) {
    const apiUrl = await runtime.api.listen({ host, port });
    const siteUrl = await runtime.site.listen({ host, port: sitePort });
    lines.push(`agentdesk dashboard API: ${apiUrl}  (docs: ${apiUrl}/api/docs)`);
    lines.push(`agentdesk marketing site: ${siteUrl}`);
  }
  if (runtime.worker) {
    const workerUrl = await runtime.worker.listen({ host, port: workerPort });
    lines.push(`agentdesk worker: running (health and metrics: ${workerUrl})`);
  } else if (role !== "api") {
    lines.push("agentdesk worker: running");
  }
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
  if (role !== "worker") {
    // Until somebody can sign in, every start offers the way in (agentdesk setup-link too).
    const setupLink = await runtime.services.accounts.setupLink();
    if (setupLink) {
      // One blank line before it, also after the key's block (which ends with one).
      if (lines.at(-1) !== "") lines.push("");
      lines.push(
        "Create the first owner account (one-time link, valid 7 days):",
        "",
        `  ${setupLink}`,
        "",
      );
    }
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}
