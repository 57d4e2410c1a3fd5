import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError } from "../../src/db/data-dir-lock.ts";
import { testDatabaseKind } from "../harness/database.ts";

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), "agentdesk-cli-"));
const cli = (...args: string[]) =>
  run(process.execPath, ["bin/agentdesk.js", ...args], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: "silent" },
  });

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// One database kind is enough: the CLI shares its code with the server.
// Every test starts `node bin/agentdesk.js`, which compiles the sources through tsx first: 5-10 s
// on a quiet machine, several times that on a busy one.
const CHILD_PROCESS_TEST = { timeout: 120_000 };

describe.skipIf(testDatabaseKind !== "pglite")("agentdesk CLI", CHILD_PROCESS_TEST, () => {
  it("creates an organization and another key, printing JSON", async () => {
    const created = JSON.parse((await cli("org", "create", "--name", "Acme", "--json")).stdout);
    expect(created).toMatchObject({
      organization: { id: expect.any(String), name: "Acme" },
      apiKey: expect.stringMatching(/^adk_/),
    });
    const key = JSON.parse(
      (await cli("key", "create", "--org", created.organization.id, "--json")).stdout,
    );
    expect(key.apiKey).toMatch(/^adk_/);
    expect(key.apiKey).not.toBe(created.apiKey);
  });

  it("explains usage errors with exit code 2", async () => {
    await expect(cli("org", "create")).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--name is required"),
    });
    await expect(cli("frobnicate")).rejects.toMatchObject({ code: 2 });
  });

  it("stops on a bad variable, naming it", async () => {
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

const serve = (env: Record<string, string>) =>
  run(process.execPath, ["bin/agentdesk.js", "serve"], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: "0", SITE_PORT: "0", ...env },
  });

describe.skipIf(testDatabaseKind !== "pglite")(
  "servers that cannot be reached at boot",
  CHILD_PROCESS_TEST,
  () => {
    it("stops with exit code 1, naming DATABASE_URL and where, never its password", async () => {
      const port = await closedPort();
      const failure = await serve({
        DATABASE_URL: `postgres://agentdesk:pa55-w0rd@127.0.0.1:${port}/agentdesk`,
      }).catch((error: unknown) => error as { code: number; stdout: string; stderr: string });
      expect(failure).toMatchObject({ code: 1 });
      expect(failure.stderr.trim()).toBe(
        `DATABASE_URL: cannot connect to 127.0.0.1:${port} (connection refused)`,
      );
      expect(`${failure.stdout}${failure.stderr}`).not.toContain("pa55-w0rd");
    });

    it.skipIf(!process.env.TEST_DATABASE_URL)(
      "says which database does not exist on a server that answers",
      async () => {
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.pathname = "/agentdesk_no_such_database";
        await expect(serve({ DATABASE_URL: url.toString() })).rejects.toMatchObject({
          code: 1,
          stderr: expect.stringContaining(
            `DATABASE_URL: cannot connect to ${url.hostname}:${url.port || 5432} (database "agentdesk_no_such_database" does not exist)`,
          ),
        });
      },
    );

    it("stops with exit code 1, naming REDIS_URL, never its password", async () => {
      const port = await closedPort();
      const failure = await serve({ REDIS_URL: `redis://:r3d1s-pw@127.0.0.1:${port}` }).catch(
        (error: unknown) => error as { code: number; stdout: string; stderr: string },
      );
      expect(failure).toMatchObject({ code: 1 });
      expect(failure.stderr.trim()).toBe(
        `REDIS_URL: cannot connect to 127.0.0.1:${port} (connection refused)`,
      );
      expect(`${failure.stdout}${failure.stderr}`).not.toContain("r3d1s-pw");
    });
  },
);

describe.skipIf(testDatabaseKind !== "pglite")("agentdesk serve", CHILD_PROCESS_TEST, () => {
  it("prints both URLs and the Default key, serves, and exits cleanly on SIGTERM", async () => {
    const serveDir = mkdtempSync(join(tmpdir(), "agentdesk-serve-"));
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
        const timer = setTimeout(() => reject(new Error(`no banner: ${output}`)), 100_000);
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
  it("refuses a second live owner and takes over a stale lock", () => {
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
