import { parseArgs } from "node:util";
import type { Env } from "../config/env-types.ts";
import { withOperatorServices } from "./cli-database.ts";
import { pageLimit, required } from "./cli-options.ts";
import { print, printMore, table } from "./cli-output.ts";

/** The operator at the command line, as the audit log names them. */
const OPERATOR = { actor: { type: "admin", id: null } } as const;

/** The bounds of `org list --limit`, as those of GET /api/admin/organizations. */
const ORG_PAGE_DEFAULT = 50;
const ORG_PAGE_MAX = 1_000;

const json = { type: "boolean", default: false } as const;

/** `agentdesk org create`: an organization, its owner and its first API key. */
export async function orgCreate(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { name: { type: "string" }, "owner-email": { type: "string" }, json },
  });
  const name = required(values.name, "--name");
  const created = await withOperatorServices(env, ({ organizations }) =>
    organizations.createOrganization({ name, ownerEmail: values["owner-email"] }),
  );
  print(values.json, created, [
    `Organization ${created.organization.name} (${created.organization.id})`,
    `API key (shown once): ${created.apiKey}`,
  ]);
}

/** `agentdesk org list`: organizations, newest first, a page at a time. */
export async function orgList(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { limit: { type: "string" }, cursor: { type: "string" }, json },
  });
  const limit = pageLimit(values.limit, ORG_PAGE_DEFAULT, ORG_PAGE_MAX);
  const page = await withOperatorServices(env, ({ directory }) =>
    directory.listOrganizations({ limit, cursor: values.cursor }),
  );
  print(
    values.json,
    page,
    table(
      ["ID", "CREATED", "PLAN", "BILLING", "NAME"],
      page.data.map((org) => [org.id, org.createdAt, org.plan, org.billingModel, org.name]),
    ),
  );
  if (!values.json) printMore(page.nextCursor);
}

/** `agentdesk key create`: another API key for an organization's owner. */
export async function keyCreate(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({ args, options: { org: { type: "string" }, json } });
  const organizationId = required(values.org, "--org");
  const issued = await withOperatorServices(env, ({ organizations }) =>
    organizations.issueApiKey(organizationId, undefined, OPERATOR),
  );
  print(values.json, issued, [`API key (shown once): ${issued.apiKey}`]);
}

/** `agentdesk key list`: an organization's keys, by prefix; never the keys themselves. */
export async function keyList(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({ args, options: { org: { type: "string" }, json } });
  const organizationId = required(values.org, "--org");
  const keys = await withOperatorServices(env, ({ directory }) =>
    directory.listApiKeys(organizationId),
  );
  print(
    values.json,
    { data: keys },
    table(
      ["ID", "PREFIX", "CREATED", "LAST USED", "REVOKED", "NAME"],
      keys.map((key) => [
        key.id,
        key.keyPrefix,
        key.createdAt,
        key.lastUsedAt,
        key.revokedAt,
        key.name,
      ]),
    ),
  );
}

/** `agentdesk key revoke`: the key stops authenticating at once, in every process. */
export async function keyRevoke(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { org: { type: "string" }, key: { type: "string" } },
  });
  const organizationId = required(values.org, "--org");
  const apiKeyId = required(values.key, "--key");
  await withOperatorServices(env, ({ organizations }) =>
    organizations.revokeApiKey(organizationId, apiKeyId, OPERATOR),
  );
  process.stdout.write(`Revoked API key ${apiKeyId}\n`);
}
