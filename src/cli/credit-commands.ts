import { parseArgs } from "node:util";
import type { Env } from "../config/env-types.ts";
import { isoDateTime } from "../lib/iso-instant.ts";
import { withOperatorServices } from "./cli-database.ts";
import { required, UsageError } from "./cli-options.ts";
import { print } from "./cli-output.ts";

/** `agentdesk credits grant`: a bucket of credits, optionally expiring. */
export async function creditsGrant(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      org: { type: "string" },
      amount: { type: "string" },
      "expires-at": { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const organizationId = required(values.org, "--org");
  const amount = Number(required(values.amount, "--amount"));
  if (!Number.isFinite(amount) || amount <= 0 || amount > 1_000_000_000) {
    throw new UsageError("--amount must be a number above 0 and at most 1000000000");
  }
  // The admin API's rule for expiresAt.
  const expiry = isoDateTime.optional().safeParse(values["expires-at"]);
  if (!expiry.success) {
    throw new UsageError(
      "--expires-at must be an ISO 8601 date-time of the years 1970 to 9999, e.g. 2030-01-01T00:00:00Z",
    );
  }
  const expiresAt = expiry.data;
  const bucket = await withOperatorServices(env, ({ credits }) =>
    credits.grant(organizationId, { amount, expiresAt }),
  );
  print(values.json, { creditBucket: bucket }, [
    `Granted ${bucket.amount} credits to ${organizationId}` +
      (bucket.expiresAt ? `, expiring ${bucket.expiresAt}` : "") +
      ` (bucket ${bucket.id})`,
  ]);
}
