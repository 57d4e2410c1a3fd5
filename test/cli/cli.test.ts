import { execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { test as base, describe, expect, inject } from "vitest";
import { acquireDataDirLock, DataDirLockedError } from "../../src/db/data-dir-lock.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { TEST_TIMEOUT_MS } from "../harness/timeouts.ts";

const run = promisify(execFile);

/** `dataDir`: the DATA_DIR of the commands, a temporary directory of the file. */
const test = base.extend(
  "dataDir",
  { scope: "file" },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  ({}, { onCleanup }) => {
    const dataDir = mkdtempSync(join(tmpdir(), "agentdesk-cli-"));
    onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    return dataDir;
  },
);

const cli = (dataDir: string, ...args: string[]) =>
  run(process.execPath, ["bin/agentdesk.js", ...args], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: "silent" },
  });
/** The exit code and output of a run expected to fail. */
const failure = (dataDir: string, ...args: string[]) =>
  cli(dataDir, ...args).then(
    () => {
      throw new Error(`agentdesk ${args.join(" ")} succeeded`);
    },
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

// The commands and their synopses, as `agentdesk --help` lists them.
const COMMAND_LINES = [
  "agentdesk serve [--role all|api|worker]",
  "agentdesk org create --name NAME [--owner-email EMAIL] [--json]",
  "agentdesk org list [--limit N] [--cursor CURSOR] [--json]",
  "agentdesk key create --org ORGANIZATION_ID [--json]",
  "agentdesk key list --org ORGANIZATION_ID [--json]",
  "agentdesk key revoke --org ORGANIZATION_ID --key API_KEY_ID",
  "agentdesk credits grant --org ORGANIZATION_ID --amount CREDITS [--expires-at DATE_TIME] [--json]",
  "agentdesk leads list [--since DATE] [--until DATE] [--source SOURCE] [--email EMAIL] [--limit N] [--cursor CURSOR] [--json]",
  "agentdesk leads export [--since DATE] [--until DATE] [--source SOURCE] [--email EMAIL] [--output FILE]",
  "agentdesk setup-link",
  "agentdesk user create --email EMAIL --org ORGANIZATION_ID --role owner|admin|member|viewer [--json]",
  "agentdesk admin grant --email EMAIL",
  "agentdesk eval run --set ID [--url URL --key KEY] [--baseline RUN_ID] [--min-pass-rate R] [--json] [--junit FILE]",
];

// Tests whose processes open the embedded database load the whole service: several seconds of
// CPU each (PGlite's start alone about 2), which a busy machine multiplies.
const OPENS_DATABASE = { timeout: 2 * TEST_TIMEOUT_MS };

/**
 * Puts the run's migrated snapshot (test/harness/global-setup.ts) where `serve` keeps the embedded
 * database, so the process skips initdb (about 10 s of CPU). A first start on an empty DATA_DIR
 * is what test/recovery/kill-recovery.test.ts does.
 */
function seedDataDir(dir: string): void {
  mkdirSync(join(dir, "pglite"));
  execFileSync("tar", ["-xf", inject("pgliteSnapshot"), "-C", join(dir, "pglite")], {
    stdio: "ignore",
  });
}

// One database kind is enough: the CLI shares its code with the server.
describe.skipIf(testDatabaseKind !== "pglite")("agentdesk help", () => {
  test("prints the usage of every command on stdout for --help, -h and help", async ({
    dataDir,
  }) => {
    for (const flag of ["--help", "-h", "help"]) {
      const { stdout, stderr } = await cli(dataDir, flag);
      expect(stdout).toMatch(/^Usage:\n/);
      for (const line of COMMAND_LINES) expect(stdout).toContain(`  ${line}\n`);
      expect(stderr).toBe("");
    }
  });

  test("prints one command's usage for <command> --help, without running it", async () => {
    const helpDir = mkdtempSync(join(tmpdir(), "agentdesk-help-"));
    try {
      for (const [args, line] of [
        [["serve", "--help"], COMMAND_LINES[0]],
        [["org", "create", "--help"], COMMAND_LINES[1]],
        [["key", "create", "-h"], COMMAND_LINES[3]],
        [["help", "key", "create"], COMMAND_LINES[3]],
      ] as const) {
        const { stdout } = await run(process.execPath, ["bin/agentdesk.js", ...args], {
          env: { PATH: process.env.PATH, DATA_DIR: join(helpDir, "data") },
        });
        expect(stdout.split("\n")[0]).toBe(`Usage: ${line}`);
        expect(stdout).toContain("-h, --help");
      }
      // No command ran: none opened (and so created) the embedded database.
      expect(readdirSync(helpDir)).toEqual([]);
    } finally {
      rmSync(helpDir, { recursive: true, force: true });
    }
  });

  test("prints the version of package.json", async ({ dataDir }) => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    expect((await cli(dataDir, "--version")).stdout).toBe(`${version}\n`);
  });

  test("answers an unknown command with one line and the usage on stderr, exit code 2", async ({
    dataDir,
  }) => {
    const { code, stdout, stderr } = await failure(dataDir, "frobnicate", "--now");
    expect(code).toBe(2);
    expect(stdout).toBe("");
    const [first, blank, ...usage] = stderr.split("\n");
    expect(first).toBe('Unknown command "frobnicate --now"');
    expect(blank).toBe("");
    expect(usage.join("\n")).toContain(COMMAND_LINES[1]);
  });

  test("answers an unknown option with the command's usage, exit code 2", async ({ dataDir }) => {
    const { code, stderr } = await failure(dataDir, "serve", "--rol", "api");
    expect(code).toBe(2);
    expect(stderr).toContain("--rol");
    expect(stderr).toContain(`\nUsage: ${COMMAND_LINES[0]}\n`);
  });

  test("lists in the README the commands it lists", async ({ dataDir }) => {
    const readme = readFileSync("README.md", "utf8");
    // The block may be preceded by the README script test's marker (<!-- readme-test: … -->).
    const block = /\nCLI:\n\n(?:<!--[^\n]*-->\n)?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    const documented = block
      .split("\n")
      .filter((line) => line.startsWith("npx agentdesk ") && !line.includes("--help"))
      .map((line) => line.slice("npx ".length));
    const listed = (await cli(dataDir, "--help")).stdout
      .split("\n")
      .filter((line) => line.startsWith("  agentdesk "))
      .map((line) => line.trim());
    expect(documented).toEqual(listed);
    expect(listed).toEqual(COMMAND_LINES);
  });
});

describe.skipIf(testDatabaseKind !== "pglite")("agentdesk CLI", OPENS_DATABASE, () => {
  test.beforeAll(({ dataDir }) => seedDataDir(dataDir));

  test("creates an organization and another key, printing JSON", async ({ dataDir }) => {
    const created = JSON.parse(
      (await cli(dataDir, "org", "create", "--name", "Acme", "--json")).stdout,
    );
    expect(created).toMatchObject({
      organization: { id: expect.any(String), name: "Acme" },
      apiKey: expect.stringMatching(/^adk_/),
    });
    const key = JSON.parse(
      (await cli(dataDir, "key", "create", "--org", created.organization.id, "--json")).stdout,
    );
    expect(key.apiKey).toMatch(/^adk_/);
    expect(key.apiKey).not.toBe(created.apiKey);
  });

  test("explains usage errors with exit code 2", async ({ dataDir }) => {
    await expect(cli(dataDir, "org", "create")).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--name is required"),
    });
    await expect(cli(dataDir, "frobnicate")).rejects.toMatchObject({ code: 2 });
  });

  test("reports a failure in one line, without a stack trace, exit code 1", async ({ dataDir }) => {
    const { code, stdout, stderr } = await failure(
      dataDir,
      "key",
      "create",
      "--org",
      "doesnotexist",
    );
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe("error: Organization doesnotexist not found\n");
  });

  test("stops on a bad variable, naming it", async () => {
    await expect(
      run(process.execPath, ["bin/agentdesk.js", "serve"], {
        env: { PATH: process.env.PATH, PORT: "eighty" },
      }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("PORT") });
  });
});

/** A port on 127.0.0.1 that nothing listens on (just released by a server of ours). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const serve = (dataDir: string, env: Record<string, string>) =>
  run(process.execPath, ["bin/agentdesk.js", "serve"], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: "0", SITE_PORT: "0", ...env },
  });

describe.skipIf(testDatabaseKind !== "pglite")("servers that cannot be reached at boot", () => {
  test("stops with exit code 1, naming DATABASE_URL and where, never its password", async ({
    dataDir,
  }) => {
    const port = await closedPort();
    const failure = await serve(dataDir, {
      DATABASE_URL: `postgres://agentdesk:pa55-w0rd@127.0.0.1:${port}/agentdesk`,
    }).catch((error: unknown) => error as { code: number; stdout: string; stderr: string });
    expect(failure).toMatchObject({ code: 1 });
    expect(failure.stderr.trim()).toBe(
      `DATABASE_URL: cannot connect to 127.0.0.1:${port} (connection refused)`,
    );
    expect(`${failure.stdout}${failure.stderr}`).not.toContain("pa55-w0rd");
  });

  test.skipIf(!process.env.TEST_DATABASE_URL)(
    "says which database does not exist on a server that answers",
    async ({ dataDir }) => {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = "/agentdesk_no_such_database";
      await expect(serve(dataDir, { DATABASE_URL: url.toString() })).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining(
          `DATABASE_URL: cannot connect to ${url.hostname}:${url.port || 5432} (database "agentdesk_no_such_database" does not exist)`,
        ),
      });
    },
  );

  test("stops with exit code 1, naming REDIS_URL, never its password", async ({ dataDir }) => {
    const port = await closedPort();
    const failure = await serve(dataDir, {
      REDIS_URL: `redis://:r3d1s-pw@127.0.0.1:${port}`,
    }).catch((error: unknown) => error as { code: number; stdout: string; stderr: string });
    expect(failure).toMatchObject({ code: 1 });
    expect(failure.stderr.trim()).toBe(
      `REDIS_URL: cannot connect to 127.0.0.1:${port} (connection refused)`,
    );
    expect(`${failure.stdout}${failure.stderr}`).not.toContain("r3d1s-pw");
  });
});

describe.skipIf(testDatabaseKind !== "pglite")("agentdesk serve", OPENS_DATABASE, () => {
  test("prints both URLs and the Default key, serves, and exits cleanly on SIGTERM", async ({
    task,
  }) => {
    const serveDir = mkdtempSync(join(tmpdir(), "agentdesk-serve-"));
    seedDataDir(serveDir);
    const child = spawn(process.execPath, ["bin/agentdesk.js", "serve"], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: serveDir,
        PORT: "0",
        SITE_PORT: "0",
        LOG_LEVEL: "warn",
      },
    });
    try {
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      await new Promise<void>((resolve, reject) => {
        // Before the test's own timeout, so that a failure shows what the process printed.
        const timer = setTimeout(
          () => reject(new Error(`no banner: ${output}`)),
          task.timeout * 0.8,
        );
        child.stdout.on("data", () => {
          if (output.includes("adk_")) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const apiUrl = /dashboard API: (http:\/\/\S+)/.exec(output)?.[1];
      const siteUrl = /marketing site: (http:\/\/\S+)/.exec(output)?.[1];
      const key = /(adk_\S+)/.exec(output)?.[1];
      expect((await fetch(`${siteUrl}/api/health`)).status).toBe(200);
      const me = await fetch(`${apiUrl}/api/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
      child.kill("SIGTERM");
      const [code] = await once(child, "exit");
      expect(code).toBe(0);
    } finally {
      child.kill("SIGKILL");
      rmSync(serveDir, { recursive: true, force: true });
    }
  });
});

describe("embedded database lock", () => {
  test("refuses a second live owner and takes over a stale lock", () => {
    const dir = mkdtempSync(join(tmpdir(), "agentdesk-lock-"));
    try {
      writeFileSync(join(dir, "agentdesk.pid"), "1");
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      writeFileSync(join(dir, "agentdesk.pid"), "999999999");
      const release = acquireDataDirLock(dir);
      release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
