import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import pg from "pg";
import { test as base, describe, expect, inject } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { leads } from "../../src/db/schema/index.ts";
import { newId } from "../../src/lib/ids.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { TEST_TIMEOUT_MS } from "../harness/timeouts.ts";

const execute = promisify(execFile);
type Run = { code: number; stdout: string; stderr: string };

/** Runs the compiled CLI with only these variables; resolves with its exit code and output. */
function agentdesk(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return execute(process.execPath, ["bin/agentdesk.js", ...args], {
    env: { PATH: process.env.PATH, LOG_LEVEL: "silent", ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Run) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

/** `scratch`: a temporary directory of the file; `dataDir`: the data directory in it. */
const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("scratch", { scope: "file" }, ({}, { onCleanup }) => {
    const scratch = mkdtempSync(join(tmpdir(), "agentdesk-cli-admin-"));
    onCleanup(() => rmSync(scratch, { recursive: true, force: true }));
    return scratch;
  })
  .extend("dataDir", { scope: "file" }, ({ scratch }) => join(scratch, "data"));

// Processes that open the database load the whole service and PGlite: seconds of CPU each.
const OPENS_DATABASE = { timeout: 6 * TEST_TIMEOUT_MS };

const COMMANDS = [
  ["org", "create"],
  ["org", "list"],
  ["key", "create"],
  ["key", "list"],
  ["key", "revoke"],
  ["credits", "grant"],
  ["leads", "list"],
  ["leads", "export"],
];

/** Leads as the site stores them, at fixed times, one of them with a formula for a name. */
const LEADS = [
  { name: "Ada", email: "ada@cli.example", source: "quiz", at: "2024-05-01T10:00:00Z" },
  { name: "=1+1", email: "bob@cli.example", source: "blog", at: "2024-05-02T10:00:00Z" },
  { name: "Cy, Jr.", email: "cy@cli.example", source: "quiz", at: "2024-05-03T10:00:00Z" },
];

async function insertLeads(database: Database): Promise<string[]> {
  const rows = LEADS.map(({ at, ...lead }) => ({
    id: newId(),
    ...lead,
    createdAt: sql`${at}::timestamptz` as unknown as Date,
  }));
  await database.db.insert(leads).values(rows);
  return rows.map((row) => row.id);
}

describe.skipIf(testDatabaseKind !== "pglite")("agentdesk admin commands: usage", () => {
  test("prints each command's usage for --help, exit code 0, opening no database", async ({
    scratch,
  }) => {
    const dataDir = join(scratch, "help");
    for (const words of COMMANDS) {
      const { code, stdout, stderr } = await agentdesk({ DATA_DIR: dataDir }, ...words, "--help");
      expect(code).toBe(0);
      expect(stdout.split("\n")[0]).toMatch(new RegExp(`^Usage: agentdesk ${words.join(" ")} `));
      expect(stdout).toContain("-h, --help");
      expect(stderr).toBe("");
    }
    const group = await agentdesk({ DATA_DIR: dataDir }, "leads", "--help");
    expect(group.code).toBe(0);
    expect(group.stdout).toContain("Usage: agentdesk leads list ");
    expect(group.stdout).toContain("Usage: agentdesk leads export ");
    expect(existsSync(dataDir)).toBe(false);
  });

  test("answers an unknown command with exit code 2 and the usage", async ({ scratch }) => {
    for (const words of [["leads", "delete"], ["org"], ["credits"]]) {
      const { code, stdout, stderr } = await agentdesk({ DATA_DIR: scratch }, ...words);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr.split("\n")[0]).toBe(`Unknown command "${words.join(" ")}"`);
      expect(stderr).toContain("\nUsage:\n");
    }
  });

  test.for<[string[], string]>([
    [["key", "list"], "--org is required"],
    [["key", "revoke", "--org", "o1"], "--key is required"],
    [["key", "revoke", "--key", "k1"], "--org is required"],
    [["credits", "grant", "--org", "o1"], "--amount is required"],
    [["credits", "grant", "--org", "o1", "--amount=-5"], "--amount must be a number above 0"],
    [["credits", "grant", "--org", "o1", "--amount", "ten"], "--amount must be a number above 0"],
    [
      ["credits", "grant", "--org", "o1", "--amount", "5", "--expires-at", "tomorrow"],
      "--expires-at must be an ISO 8601 date-time",
    ],
    [["org", "list", "--limit", "0"], "--limit must be a whole number from 1 to 1000"],
    [["leads", "list", "--limit", "1001"], "--limit must be a whole number from 1 to 1000"],
    [
      ["credits", "grant", "--org", "o1", "--amount", "5", "--expires-at", "0000-01-01T00:00:00Z"],
      "--expires-at must be an ISO 8601 date-time of the years 1970 to 9999",
    ],
    [["leads", "list", "--since", "yesterday"], "--since must be an ISO 8601 date"],
    [["leads", "list", "--since", "0000-01-01"], "--since must be an instant of the years 1970"],
    [["leads", "export", "--until", "10000-01-01"], "--until must be an ISO 8601 date"],
    [
      ["leads", "export", "--since", "2024-05-02", "--until", "2024-05-01"],
      "--since must be before until",
    ],
    [["leads", "export", "--source", "s".repeat(51)], "--source"],
    [["leads", "export", "--output", ""], "--output needs a file name"],
    [["leads", "list", "--colour"], "--colour"],
    [["org", "list", "stray"], "stray"],
  ])("answers %j with exit code 2: %s", async ([args, message], { scratch }) => {
    const { code, stdout, stderr } = await agentdesk({ DATA_DIR: join(scratch, "usage") }, ...args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n")[0]).toContain(message);
    expect(stderr).toContain(`\nUsage: agentdesk ${args.slice(0, 2).join(" ")} `);
    expect(existsSync(join(scratch, "usage"))).toBe(false);
  });

  test("refuses every command but serve without a database in DATA_DIR, creating nothing", {
    timeout: 3 * TEST_TIMEOUT_MS,
  }, async ({ scratch }) => {
    const missing = join(scratch, "missing");
    const empty = join(scratch, "empty");
    mkdirSync(empty);
    const refusal = (dataDir: string) =>
      `No database in ${dataDir} (DATA_DIR): start the server there once (agentdesk serve), ` +
      "point DATA_DIR at its directory, or set DATABASE_URL.\n";
    const runs: [string, string[]][] = [
      [missing, ["org", "create", "--name", "Acme"]],
      [missing, ["org", "list"]],
      [missing, ["key", "create", "--org", "o1"]],
      [missing, ["key", "list", "--org", "o1"]],
      [missing, ["key", "revoke", "--org", "o1", "--key", "k1"]],
      [missing, ["credits", "grant", "--org", "o1", "--amount", "5"]],
      [missing, ["leads", "list"]],
      [missing, ["leads", "export", "--output", join(scratch, "never.csv")]],
      [empty, ["org", "list"]],
      [empty, ["leads", "export"]],
    ];
    for (const [dataDir, args] of runs) {
      const { code, stdout, stderr } = await agentdesk({ DATA_DIR: dataDir }, ...args);
      expect({ args, code, stdout, stderr }).toEqual({
        args,
        code: 1,
        stdout: "",
        stderr: refusal(dataDir),
      });
    }
    expect(existsSync(missing)).toBe(false);
    expect(readdirSync(empty)).toEqual([]);
    expect(existsSync(join(scratch, "never.csv"))).toBe(false);
  });

  test("names DATABASE_URL in one line when it cannot connect, never its password", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const { code, stdout, stderr } = await agentdesk(
      { DATABASE_URL: `postgres://agentdesk:s3cret-pw@127.0.0.1:${port}/agentdesk` },
      "leads",
      "list",
    );
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(`DATABASE_URL: cannot connect to 127.0.0.1:${port} (connection refused)\n`);
  });
});

describe.skipIf(testDatabaseKind !== "pglite")(
  "agentdesk admin commands on a data directory",
  OPENS_DATABASE,
  () => {
    let leadIds: string[] = [];

    test.beforeAll(async ({ dataDir }) => {
      const env = { DATA_DIR: dataDir };
      // The run's migrated snapshot (test/harness/global-setup.ts), where `serve` keeps it.
      mkdirSync(join(dataDir, "pglite"), { recursive: true });
      execFileSync("tar", ["-xf", inject("pgliteSnapshot"), "-C", join(dataDir, "pglite")]);
      const database = await openDatabase({ kind: "pglite", dataDir });
      try {
        leadIds = await insertLeads(database);
        // While this process holds the embedded database, the CLI refuses it in one line.
        const locked = await agentdesk(env, "org", "list");
        expect(locked.code).toBe(1);
        expect(locked.stdout).toBe("");
        expect(locked.stderr).toBe(
          `The embedded database in ${dataDir} is in use by process ${process.pid}. Stop it ` +
            "first, or use the admin API (/api/admin/*) of the running server.\n",
        );
      } finally {
        await database.close();
      }
    }, OPENS_DATABASE.timeout);

    let orgId = "";
    let firstKeyId = "";

    test("creates organizations and finds them again", async ({ dataDir }) => {
      const env = { DATA_DIR: dataDir };
      const created = JSON.parse(
        (await agentdesk(env, "org", "create", "--name", "Lost & Found", "--json")).stdout,
      );
      orgId = created.organization.id;
      firstKeyId = created.apiKeyId;
      const listed = JSON.parse((await agentdesk(env, "org", "list", "--json")).stdout);
      expect(listed).toEqual({
        data: [
          {
            id: orgId,
            name: "Lost & Found",
            billingModel: "credits",
            plan: "free",
            subscriptionStatus: "none",
            queryLimit: null,
            conversationRetentionDays: null,
            createdAt: expect.any(String),
          },
        ],
        nextCursor: null,
      });
      const text = await agentdesk(env, "org", "list");
      expect(text.code).toBe(0);
      expect(text.stdout.split("\n")[0]).toMatch(/^ID +CREATED +PLAN +BILLING +NAME$/);
      expect(text.stdout.split("\n")[1]).toMatch(
        new RegExp(`^${orgId} +\\d{4}-\\d{2}-\\d{2}T\\S+ +free +credits +Lost & Found$`),
      );
    });

    test("issues, lists and revokes keys and grants credits", async ({ dataDir }) => {
      const env = { DATA_DIR: dataDir };
      const issued = JSON.parse(
        (await agentdesk(env, "key", "create", "--org", orgId, "--json")).stdout,
      );
      const revoked = await agentdesk(env, "key", "revoke", "--org", orgId, "--key", firstKeyId);
      expect(revoked).toEqual({ code: 0, stdout: `Revoked API key ${firstKeyId}\n`, stderr: "" });
      const keys = await agentdesk(env, "key", "list", "--org", orgId, "--json");
      expect(JSON.parse(keys.stdout).data).toEqual([
        expect.objectContaining({
          id: issued.apiKeyId,
          keyPrefix: issued.apiKey.slice(0, 10),
          revokedAt: null,
        }),
        expect.objectContaining({ id: firstKeyId, revokedAt: expect.any(String) }),
      ]);
      expect(keys.stdout).not.toContain(issued.apiKey);

      const again = await agentdesk(env, "key", "revoke", "--org", orgId, "--key", firstKeyId);
      expect(again).toEqual({
        code: 1,
        stdout: "",
        stderr: `error: API key ${firstKeyId} not found in organization ${orgId}\n`,
      });

      const granted = await agentdesk(
        env,
        ...["credits", "grant", "--org", orgId, "--amount", "12.5"],
        ...["--expires-at", "2030-01-01T00:00:00Z", "--json"],
      );
      expect(JSON.parse(granted.stdout).creditBucket).toMatchObject({
        organizationId: orgId,
        amount: 12.5,
        remaining: 12.5,
        expiresAt: "2030-01-01T00:00:00.000Z",
      });
    });

    test("lists leads newest first, filtered, a page at a time", async ({ dataDir }) => {
      const env = { DATA_DIR: dataDir };
      const [ada, bob, cy] = leadIds;
      const all = JSON.parse((await agentdesk(env, "leads", "list", "--json")).stdout);
      expect(all.data.map((lead: { id: string }) => lead.id)).toEqual([cy, bob, ada]);
      expect(all.data[0]).toMatchObject({
        name: "Cy, Jr.",
        email: "cy@cli.example",
        source: "quiz",
        phone: null,
        createdAt: "2024-05-03T10:00:00.000Z",
      });

      const first = await agentdesk(env, "leads", "list", "--source", "quiz", "--limit", "1");
      expect(first.code).toBe(0);
      const lines = first.stdout.trimEnd().split("\n");
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(
        new RegExp(`^${cy} +2024-05-03T10:00:00.000Z +quiz +cy@cli.example`),
      );
      const more = /^More: repeat the command with --cursor (\S+)\n$/.exec(first.stderr);
      expect(more).not.toBeNull();
      const second = await agentdesk(
        env,
        ...["leads", "list", "--source", "quiz", "--limit", "1", "--cursor", more![1]!, "--json"],
      );
      expect(JSON.parse(second.stdout)).toEqual({
        data: [expect.objectContaining({ id: ada })],
        nextCursor: null,
      });

      const oneDay = ["--since", "2024-05-02", "--until", "2024-05-02", "--json"];
      const day = JSON.parse((await agentdesk(env, "leads", "list", ...oneDay)).stdout);
      expect(day.data.map((lead: { id: string }) => lead.id)).toEqual([bob]);
    });

    test("exports leads as CSV to stdout or to a file", async ({ scratch, dataDir }) => {
      const env = { DATA_DIR: dataDir };
      const [ada, bob, cy] = leadIds;
      const exported = await agentdesk(env, "leads", "export");
      expect(exported.code).toBe(0);
      expect(exported.stderr).toBe("");
      const [header, ...rows] = parse(exported.stdout) as string[][];
      expect(header?.slice(0, 4)).toEqual(["id", "created_at", "name", "email"]);
      expect(rows.map((row) => row[0])).toEqual([cy, bob, ada]);
      expect(rows[1]?.[2]).toBe("'=1+1");
      expect(exported.stdout).toContain('"Cy, Jr."');

      const output = join(scratch, "leads.csv");
      const toFile = await agentdesk(
        env,
        "leads",
        "export",
        "--source",
        "quiz",
        "--output",
        output,
      );
      expect(toFile).toEqual({ code: 0, stdout: "", stderr: "" });
      const fromFile = (parse(readFileSync(output, "utf8")) as string[][]).slice(1);
      expect(fromFile.map((row) => row[0])).toEqual([cy, ada]);
    });
  },
);

/** A database of its own on the PostgreSQL server of TEST_DATABASE_URL, dropped afterwards. */
async function withPostgresDatabase<T>(run: (url: string) => Promise<T>): Promise<T> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `agentdesk_cli_${newId().slice(0, 12)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin(`drop database if exists ${name} with (force)`);
  }
}

describe.skipIf(testDatabaseKind !== "postgres")(
  "agentdesk admin commands with DATABASE_URL",
  OPENS_DATABASE,
  () => {
    test("creates and lists organizations and exports leads, migrating the database", async ({
      scratch,
    }) => {
      await withPostgresDatabase(async (url) => {
        const env = { DATABASE_URL: url, DATA_DIR: join(scratch, "unused") };
        const created = await agentdesk(env, "org", "create", "--name", "Remote", "--json");
        expect(created.code).toBe(0);
        const orgId = JSON.parse(created.stdout).organization.id;
        const listed = JSON.parse((await agentdesk(env, "org", "list", "--json")).stdout);
        expect(listed.data.map((org: { id: string }) => org.id)).toEqual([orgId]);

        const database = await openDatabase({ kind: "postgres", connectionString: url });
        let ids: string[];
        try {
          ids = await insertLeads(database);
        } finally {
          await database.close();
        }
        const list = JSON.parse((await agentdesk(env, "leads", "list", "--json")).stdout);
        expect(list.data.map((lead: { id: string }) => lead.id)).toEqual([...ids].reverse());
        const exported = await agentdesk(env, "leads", "export", "--email", "BOB@cli.example");
        expect((parse(exported.stdout) as string[][]).slice(1).map((row) => row[0])).toEqual([
          ids[1],
        ]);
        expect(existsSync(join(scratch, "unused"))).toBe(false);
      });
    });
  },
);
