import { parseArgs } from "node:util";
import type { Env } from "../config/env-types.ts";
import { role as roleRequest } from "../domain/accounts/member-request.ts";
import { withOperatorServices } from "./cli-database.ts";
import { required, UsageError } from "./cli-options.ts";
import { print } from "./cli-output.ts";

const json = { type: "boolean", default: false } as const;

function roleOption(value: string | undefined) {
  const parsed = roleRequest.safeParse(required(value, "--role"));
  if (!parsed.success) {
    throw new UsageError(`--role must be one of ${roleRequest.options.join(", ")}`);
  }
  return parsed.data;
}

/**
 * `agentdesk setup-link`: the first owner's one-time link, while nobody can sign in. Once
 * someone can, it fails (exit code 1): the way in is then an invitation.
 */
export async function setupLink(args: string[], env: Env): Promise<void> {
  parseArgs({ args, options: {} });
  const link = await withOperatorServices(env, ({ accounts }) => accounts.setupLink());
  if (!link) {
    throw new Error(
      "Somebody can sign in already, so no setup link is needed: an owner invites people " +
        "(or agentdesk user create --email E --org ID --role R prints an invitation link).",
    );
  }
  process.stdout.write(`${link}\n`);
}

/** `agentdesk user create`: an invitation to an organization, printed instead of mailed. */
export async function userCreate(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: "string" },
      org: { type: "string" },
      role: { type: "string" },
      json,
    },
  });
  const email = required(values.email, "--email");
  const organizationId = required(values.org, "--org");
  const role = roleOption(values.role);
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError("--email must be an e-mail address");
  const invitation = await withOperatorServices(env, ({ people }) =>
    people.invitations.inviteByOperator(organizationId, { email, role }),
  );
  print(values.json, invitation, [
    `Invitation of ${invitation.email} as ${invitation.role} (until ${invitation.expiresAt}; ${mailNote[invitation.mail]}):`,
    invitation.acceptUrl,
  ]);
}

const mailNote = {
  sent: "mailed",
  failed: "the e-mail could not be sent: pass the link on",
  disabled: "not mailed: no SMTP_URL, pass the link on",
} as const;

/** `agentdesk admin grant`: the user may use the instance's administration with a session. */
export async function adminGrant(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: "string" } } });
  const email = required(values.email, "--email");
  const granted = await withOperatorServices(env, ({ people }) =>
    people.instanceAdmins.grant(email),
  );
  process.stdout.write(
    granted.alreadyAdmin
      ? `${granted.email} was an instance administrator already\n`
      : `${granted.email} is now an instance administrator\n`,
  );
}
