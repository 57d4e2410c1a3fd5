import { parseArgs } from "node:util";
import { openConfiguredDatabase } from "../app/runtime.ts";
import { createIdentityServices } from "../app/services.ts";
import type { Env } from "../config/env-types.ts";
import { parseConfig } from "../config/index.ts";
import { createLogger } from "../lib/logger.ts";
import { UsageError } from "./cli-commands.ts";

async function withIdentity<T>(
  env: Env,
  run: (services: ReturnType<typeof createIdentityServices>) => Promise<T>,
): Promise<T> {
  const config = parseConfig(env);
  const logger = createLogger("warn", config.server.logFormat);
  const database = await openConfiguredDatabase(config, { poolSize: 2 });
  try {
    return await run(createIdentityServices(database.db, logger));
  } finally {
    await database.close();
  }
}

/** `agentdesk org create`: an organization, its owner and its first API key. */
export async function orgCreate(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: "string" },
      "owner-email": { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.name?.trim()) throw new UsageError("--name is required");
  const created = await withIdentity(env, ({ organizations }) =>
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

/** `agentdesk key create`: another API key for an organization's owner. */
export async function keyCreate(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { org: { type: "string" }, json: { type: "boolean", default: false } },
  });
  if (!values.org) throw new UsageError("--org is required");
  const issued = await withIdentity(env, ({ organizations }) =>
    organizations.issueApiKey(values.org!),
  );
  print(values.json ?? false, issued, [`API key (shown once): ${issued.apiKey}`]);
}

function print(json: boolean, value: unknown, lines: string[]): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${lines.join("\n")}\n`);
}
