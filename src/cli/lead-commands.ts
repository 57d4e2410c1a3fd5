import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import type { Env } from "../config/env-types.ts";
import {
  LEAD_PAGE_DEFAULT,
  LEAD_PAGE_MAX,
  type LeadFilter,
  leadFilterFields,
  leadFilterOf,
} from "../domain/leads/lead-inbox-request.ts";
import { AppError } from "../lib/errors.ts";
import { withOperatorServices } from "./cli-database.ts";
import { pageLimit, UsageError } from "./cli-options.ts";
import { print, printMore, table } from "./cli-output.ts";

const filterOptions = {
  since: { type: "string" },
  until: { type: "string" },
  source: { type: "string" },
  email: { type: "string" },
} as const;

/** The options as the admin API's query parameters: the same rules, reported as usage errors. */
function filterOf(values: Partial<Record<keyof typeof filterOptions, string>>): LeadFilter {
  const parsed = leadFilterFields.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--${String(issue.path[0])} ${issue.message}`);
  }
  try {
    return leadFilterOf(parsed.data);
  } catch (error) {
    if (error instanceof AppError) throw new UsageError(`--${error.message}`);
    throw error;
  }
}

/** `agentdesk leads list`: stored leads, newest first, a page at a time. */
export async function leadsList(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      ...filterOptions,
      limit: { type: "string" },
      cursor: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const filter = filterOf(values);
  const limit = pageLimit(values.limit, LEAD_PAGE_DEFAULT, LEAD_PAGE_MAX);
  const page = await withOperatorServices(env, ({ leadInbox }) =>
    leadInbox.list(filter, { limit, cursor: values.cursor }),
  );
  print(
    values.json,
    page,
    table(
      ["ID", "CREATED", "SOURCE", "EMAIL", "NAME", "COMPANY"],
      page.data.map((lead) => [
        lead.id,
        lead.createdAt,
        lead.source,
        lead.email,
        lead.name,
        lead.company,
      ]),
    ),
  );
  if (!values.json) printMore(page.nextCursor);
}

/** `agentdesk leads export`: every selected lead as CSV, to stdout or `--output FILE`. */
export async function leadsExport(args: string[], env: Env): Promise<void> {
  const { values } = parseArgs({ args, options: { ...filterOptions, output: { type: "string" } } });
  const filter = filterOf(values);
  if (values.output === "") throw new UsageError("--output needs a file name");
  await withOperatorServices(env, async ({ leadInbox }) => {
    const csv = await leadInbox.exportCsv(filter);
    // The file is created only once the first page was read: a failed export leaves none.
    const target = values.output ? createWriteStream(values.output) : process.stdout;
    await pipeline(csv.body, target, { end: values.output !== undefined });
  });
}
