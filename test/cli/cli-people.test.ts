import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { test as base, describe, expect, inject } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { auditEvents, invitations, users } from "../../src/db/schema/index.ts";
import { sha256Hex } from "../../src/lib/secrets.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { TEST_TIMEOUT_MS } from "../harness/timeouts.ts";

const execute = promisify(execFile);
type Run = { code: number; stdout: string; stderr: string };

const PUBLIC_URL = "https://desk.example.com";

/** Runs the compiled CLI with only these variables; resolves with its exit code and output. */
function agentdesk(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return execute(process.execPath, ["bin/agentdesk.js", ...args], {
    env: { PATH: process.env.PATH, LOG_LEVEL: "silent", PUBLIC_URL, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Run) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

/** `scratch`: a temporary directory of the file; `dataDir`: the data directory in it. */
const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("scratch", { scope: "file" }, ({}, { onCleanup }) => {
    const scratch = mkdtempSync(join(tmpdir(), "agentdesk-cli-people-"));
    onCleanup(() => rmSync(scratch, { recursive: true, force: true }));
    return scratch;
  })
  .extend("dataDir", { scope: "file" }, ({ scratch }) => join(scratch, "data"));

// Processes that open the database load the whole service and PGlite: seconds of CPU each.
const OPENS_DATABASE = { timeout: 6 * TEST_TIMEOUT_MS };

// One database kind is enough: the CLI shares its code with the server.
describe.skipIf(testDatabaseKind !== "pglite")("agentdesk people commands: usage", () => {
  test.for<[string[], string]>([
    [["user", "create", "--email", "a@example.com", "--org", "o1"], "--role is required"],
    [
      ["user", "create", "--email", "a@example.com", "--org", "o1", "--role", "king"],
      "--role must be one of owner, admin, member, viewer",
    ],
    [["user", "create", "--org", "o1", "--role", "admin"], "--email is required"],
    [
      ["user", "create", "--email", "nobody", "--org", "o1", "--role", "admin"],
      "--email must be an e-mail address",
    ],
    [["user", "create", "--email", "a@example.com", "--role", "admin"], "--org is required"],
    [["admin", "grant"], "--email is required"],
    [["setup-link", "now"], "now"],
  ])("answers %j with exit code 2: %s", async ([args, message], { scratch }) => {
    const dataDir = join(scratch, "usage");
    const { code, stdout, stderr } = await agentdesk({ DATA_DIR: dataDir }, ...args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n")[0]).toContain(message);
    expect(stderr).toContain(
      `\nUsage: agentdesk ${args[0] === "setup-link" ? "setup-link" : args.slice(0, 2).join(" ")}`,
    );
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe.skipIf(testDatabaseKind !== "pglite")(
  "agentdesk people commands on a data directory",
  OPENS_DATABASE,
  () => {
    test.beforeAll(({ dataDir }) => {
      // The run's migrated snapshot (test/harness/global-setup.ts), where `serve` keeps it.
      mkdirSync(join(dataDir, "pglite"), { recursive: true });
      execFileSync("tar", ["-xf", inject("pgliteSnapshot"), "-C", join(dataDir, "pglite")]);
    });

    /** Runs `read` on the embedded database while no command holds it. */
    async function inDatabase<T>(
      dataDir: string,
      read: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>,
    ) {
      const database = await openDatabase({ kind: "pglite", dataDir });
      try {
        return await read(database.db);
      } finally {
        await database.close();
      }
    }

    let organizationId = "";

    test("prints a setup link while nobody can sign in", async ({ dataDir }) => {
      const env = { DATA_DIR: dataDir };
      const { code, stdout, stderr } = await agentdesk(env, "setup-link");
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(stdout).toMatch(/^https:\/\/desk\.example\.com\/console\/setup\?token=[\w-]{40,}\n$/);
    });

    test("invites a person and prints the link, storing only its hash", async ({ dataDir }) => {
      const env = { DATA_DIR: dataDir };
      const created = await agentdesk(
        env,
        "org",
        "create",
        "--name",
        "Team",
        "--owner-email",
        "lead@example.com",
        "--json",
      );
      organizationId = JSON.parse(created.stdout).organization.id;
      const invited = await agentdesk(
        env,
        "user",
        "create",
        "--email",
        "New@Example.com",
        "--org",
        organizationId,
        "--role",
        "admin",
      );
      expect(invited.code).toBe(0);
      const [first, link, ...rest] = invited.stdout.split("\n");
      expect(first).toMatch(
        /^Invitation of new@example\.com as admin \(until \d{4}-\d{2}-\d{2}T\S+; not mailed: no SMTP_URL, pass the link on\):$/,
      );
      expect(link).toMatch(
        /^https:\/\/desk\.example\.com\/console\/accept-invitation\?token=[\w-]{40,}$/,
      );
      expect(rest).toEqual([""]);
      const token = new URL(link!).searchParams.get("token")!;

      const asJson = await agentdesk(
        env,
        "user",
        "create",
        "--email",
        "viewer@example.com",
        "--org",
        organizationId,
        "--role",
        "viewer",
        "--json",
      );
      expect(JSON.parse(asJson.stdout)).toEqual({
        id: expect.any(String),
        email: "viewer@example.com",
        role: "viewer",
        expiresAt: expect.any(String),
        acceptUrl: expect.stringContaining("/console/accept-invitation?token="),
        mail: "disabled",
      });

      const stored = await inDatabase(dataDir, (db) =>
        db.select().from(invitations).where(eq(invitations.email, "new@example.com")),
      );
      expect(stored).toEqual([
        expect.objectContaining({ organizationId, role: "admin", tokenHash: sha256Hex(token) }),
      ]);
      const events = await inDatabase(dataDir, (db) =>
        db.select().from(auditEvents).where(eq(auditEvents.action, "member.invited")),
      );
      expect(events).toHaveLength(2);
      expect(events[0]).toMatchObject({ actorType: "admin", organizationId });
      expect(JSON.stringify(events)).not.toContain(token);
    });

    test("refuses an organization that does not exist, exit code 1", async ({ dataDir }) => {
      const env = { DATA_DIR: dataDir };
      const run = await agentdesk(
        env,
        "user",
        "create",
        "--email",
        "x@example.com",
        "--org",
        "nope",
        "--role",
        "member",
      );
      expect(run).toEqual({ code: 1, stdout: "", stderr: "error: Organization nope not found\n" });
    });

    test("makes a user an instance administrator, once", async ({ dataDir }) => {
      const env = { DATA_DIR: dataDir };
      const first = await agentdesk(env, "admin", "grant", "--email", "LEAD@example.com");
      expect(first).toEqual({
        code: 0,
        stdout: "lead@example.com is now an instance administrator\n",
        stderr: "",
      });
      const again = await agentdesk(env, "admin", "grant", "--email", "lead@example.com");
      expect(again.stdout).toBe("lead@example.com was an instance administrator already\n");
      const unknown = await agentdesk(env, "admin", "grant", "--email", "ghost@example.com");
      expect(unknown).toEqual({
        code: 1,
        stdout: "",
        stderr: "error: No user has the e-mail ghost@example.com\n",
      });
      const [lead] = await inDatabase(dataDir, (db) =>
        db.select().from(users).where(eq(users.email, "lead@example.com")),
      );
      expect(lead!.instanceAdmin).toBe(true);
      const granted = await inDatabase(dataDir, (db) =>
        db.select().from(auditEvents).where(eq(auditEvents.action, "instance_admin.granted")),
      );
      expect(granted.map((event) => [event.actorType, event.targetId])).toEqual([
        ["admin", lead!.id],
        ["admin", lead!.id],
      ]);
    });

    test("says no setup link is needed once somebody can sign in, exit code 1", async ({
      dataDir,
    }) => {
      const env = { DATA_DIR: dataDir };
      await inDatabase(dataDir, (db) =>
        db
          .update(users)
          .set({ passwordHash: "scrypt$stand-in" })
          .where(eq(users.email, "lead@example.com")),
      );
      const run = await agentdesk(env, "setup-link");
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        "error: Somebody can sign in already, so no setup link is needed: an owner invites people " +
          "(or agentdesk user create --email E --org ID --role R prints an invitation link).\n",
      );
    });
  },
);
