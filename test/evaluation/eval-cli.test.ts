import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base, describe, expect } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { startFakeOpenAI } from "../fakes/openai-server.ts";
import { ADMIN_TOKEN, type TestOrganization } from "../harness/app.ts";
import { createTestDatabase, testDatabaseKind } from "../harness/database.ts";
import { type ServiceProcess, startServiceProcess } from "../harness/service-process.ts";

// `agentdesk eval run` against a real `agentdesk serve` process, as a CI job would use it, and a
// run whose process is killed mid-way (PGlite: the same DATA_DIR started again; PostgreSQL: a
// second process started before the kill carries on).
const SLOW_TEST_MS = 120_000;
const JOB_LEASE_SECONDS = 2;

type Caller = { service: ServiceProcess; org: TestOrganization };

const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("fake", { scope: "file" }, async ({}, { onCleanup }) => {
    const fake = await startFakeOpenAI({ apiKey: "sk-test" });
    onCleanup(() => fake.close());
    return fake;
  })
  // The environment of every service process of the file: one database, the fake model.
  .extend("env", { scope: "file" }, async ({ fake }, { onCleanup }) => {
    let dataDir: string | null = null;
    let database: Database | null = null;
    const storage: Record<string, string> = {};
    if (testDatabaseKind === "pglite") {
      dataDir = mkdtempSync(join(tmpdir(), "agentdesk-eval-"));
      storage.DATA_DIR = dataDir;
    } else {
      database = await createTestDatabase();
      storage.DATABASE_URL = database.connectionString!;
    }
    onCleanup(async () => {
      await database?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });
    return {
      ...storage,
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.url,
      JOB_LEASE_SECONDS: String(JOB_LEASE_SECONDS),
    };
  })
  /** Starts one more `agentdesk serve` on `env`; every one started is killed with the file. */
  .extend("spawnService", { scope: "file" }, ({ env }, { onCleanup }) => {
    const processes: ServiceProcess[] = [];
    onCleanup(async () => {
      await Promise.all(processes.map((started) => started.kill()));
    });
    return async (): Promise<ServiceProcess> => {
      const started = await startServiceProcess(env);
      processes.push(started);
      return started;
    };
  })
  .extend("service", { scope: "file" }, ({ spawnService }) => spawnService())
  .extend("org", { scope: "file" }, async ({ service }) => {
    const org = await service.createOrganization("Eval gate");
    const granted = await service.request("POST", `/api/admin/organizations/${org.id}/credits`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      json: { amount: 1_000 },
    });
    expect(granted.status).toBe(201);
    return org;
  })
  .extend(
    "agentId",
    { scope: "file" },
    async ({ service, org }) =>
      (await json<{ id: string }>({ service, org }, "POST", "/api/agents", { name: "Support" })).id,
  );

// The service, its organization and agent are ready before the first test, within the time a
// start may take.
test.beforeAll(({ agentId }) => {
  void agentId;
}, 90_000);

async function json<Body>(
  { service, org }: Caller,
  method: string,
  path: string,
  body?: unknown,
): Promise<Body> {
  const response = await service.request<Body>(method, path, {
    auth: org,
    ...(body === undefined ? {} : { json: body }),
  });
  if (response.status >= 300) {
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

/** A set of the agent with these cases; its id. */
async function setWith(
  { agentId, ...caller }: Caller & { agentId: string },
  cases: Array<Record<string, unknown>>,
): Promise<string> {
  const set = await json<{ id: string }>(caller, "POST", "/api/eval-sets", {
    name: "Gate",
    agentId,
  });
  for (const entry of cases) await json(caller, "POST", `/api/eval-sets/${set.id}/cases`, entry);
  return set.id;
}

type Cli = { code: number | null; stdout: string; stderr: string };

/** `node bin/agentdesk.js eval run …` with only PATH in its environment (plus `extraEnv`). */
async function evalRun(args: string[], extraEnv: Record<string, string> = {}): Promise<Cli> {
  const child = spawn(process.execPath, ["bin/agentdesk.js", "eval", "run", ...args], {
    env: { PATH: process.env.PATH, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

const target = ({ service, org }: Caller) => ["--url", service.apiUrl, "--key", org.apiKey];

describe("agentdesk eval run", () => {
  test(
    "exits 0 when every gate passes, 2 under --min-pass-rate, and writes a JUnit report",
    async ({ service, org, agentId }) => {
      // The fake model answers "Answer: <question>".
      const setId = await setWith({ service, org, agentId }, [
        { question: "refund policy", mustInclude: ["refund"] },
        { question: "shipping times", mustInclude: ["shipping"] },
        { question: 'gift cards <& "quotes">', mustInclude: ["voucher"] },
      ]);
      const junit = join(tmpdir(), `agentdesk-junit-${process.pid}.xml`);
      try {
        const loose = await evalRun([
          "--set",
          setId,
          ...target({ service, org }),
          "--min-pass-rate",
          "0.5",
        ]);
        expect(loose.code, loose.stderr).toBe(0);
        expect(loose.stdout).toContain("2/3 passed (66.7%)");
        expect(loose.stdout).toContain("PASSED");
        expect(loose.stderr).toMatch(/3\/3 done/);

        const strict = await evalRun([
          "--set",
          setId,
          ...target({ service, org }),
          "--min-pass-rate",
          "1",
          "--junit",
          junit,
        ]);
        expect(strict.code, strict.stderr).toBe(2);
        expect(strict.stdout).toContain("NOT PASSED: the pass rate 66.7% is under 100.0%");
        const report = readFileSync(junit, "utf8");
        expect(report).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
        expect(report).toContain(
          '<testsuites name="agentdesk eval" tests="3" failures="1" errors="0"',
        );
        expect(report.match(/<testcase /g)).toHaveLength(3);
        expect(report).toContain('name="gift cards &lt;&amp; &quot;quotes&quot;&gt;"');
        expect(report).toContain(
          '<failure message="mustInclude: Missing &quot;voucher&quot;" type="check">',
        );
        expect(report.match(/<failure /g)).toHaveLength(1);
      } finally {
        rmSync(junit, { force: true });
      }
    },
    SLOW_TEST_MS,
  );

  test(
    "exits 2 when a case that passed in the baseline run fails now",
    async ({ service, org, agentId, fake }) => {
      const setId = await setWith({ service, org, agentId }, [
        { question: "one", mustInclude: ["yes"] },
        { question: "two", mustInclude: ["yes"] },
      ]);
      fake.script({ text: "yes" }, { text: "no" });
      const first = await evalRun(["--set", setId, ...target({ service, org }), "--json"]);
      expect(first.code, first.stderr).toBe(0);
      const baseline = JSON.parse(first.stdout) as { run: { id: string }; passed: boolean };
      expect(baseline.passed).toBe(true);

      fake.script({ text: "no" }, { text: "yes" });
      const second = await evalRun([
        "--set",
        setId,
        ...target({ service, org }),
        "--baseline",
        baseline.run.id,
      ]);
      expect(second.code, second.stderr).toBe(2);
      expect(second.stdout).toContain("1 fixed, 1 regressed, 0 unchanged");
      expect(second.stdout).toContain("regressed: one");
      expect(second.stdout).toContain(
        `NOT PASSED: 1 cases regressed against run ${baseline.run.id}`,
      );
    },
    SLOW_TEST_MS,
  );

  test(
    "exits 1 when it cannot run",
    async ({ service, org, agentId }) => {
      const setId = await setWith({ service, org, agentId }, [{ question: "hello" }]);
      const cases: Array<[string[], Record<string, string>, RegExp]> = [
        [
          ["--set", setId, "--url", service.apiUrl],
          {},
          /--key \(or AGENTDESK_API_KEY\) is required/,
        ],
        [
          ["--set", setId, ...target({ service, org }), "--min-pass-rate", "90"],
          {},
          /--min-pass-rate must be/,
        ],
        [["--set", setId, ...target({ service, org }), "--bogus"], {}, /Unknown option/],
        [
          ["--set", "missing", ...target({ service, org })],
          {},
          /answered 404: Eval set missing not found/,
        ],
        [["--set", setId, "--url", service.apiUrl, "--key", "wrong"], {}, /answered 401/],
        [["--set", setId, "--url", "http://127.0.0.1:9", "--key", "k"], {}, /cannot reach/],
        [["--set", setId], { AGENTDESK_URL: service.apiUrl, AGENTDESK_API_KEY: "wrong" }, /401/],
      ];
      for (const [args, extraEnv, message] of cases) {
        const result = await evalRun(args, extraEnv);
        expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(1);
        expect(result.stderr).toMatch(message);
      }
      const viaEnv = await evalRun(["--set", setId], {
        AGENTDESK_URL: service.apiUrl,
        AGENTDESK_API_KEY: org.apiKey,
      });
      expect(viaEnv.code, viaEnv.stderr).toBe(0);
    },
    SLOW_TEST_MS,
  );
});

describe("a run whose process is killed", () => {
  test(
    "is taken up again and records every case once",
    async ({ service: first, org, agentId, fake, spawnService }) => {
      let service = first;
      const cases = Array.from({ length: 8 }, (_, index) => ({
        question: `slow question ${index}`,
      }));
      const setId = await setWith({ service, org, agentId }, cases);
      fake.setDefaultChat({ text: "A considered answer", delayMs: 400 });
      try {
        // PostgreSQL: a second process stands by to carry on after the kill.
        const survivor = testDatabaseKind === "pglite" ? null : await spawnService();
        const started = await json<{ id: string }>({ service, org }, "POST", "/api/eval-runs", {
          evalSetId: setId,
        });
        await expect
          .poll(
            async () =>
              (
                await json<{ summary: { done: number } }>(
                  { service, org },
                  "GET",
                  `/api/eval-runs/${started.id}`,
                )
              ).summary.done,
            { timeout: 30_000, interval: 100 },
          )
          .toBeGreaterThanOrEqual(2);
        await service.kill();
        service = survivor ?? (await spawnService());

        await expect
          .poll(
            async () =>
              (
                await json<{ status: string }>(
                  { service, org },
                  "GET",
                  `/api/eval-runs/${started.id}`,
                )
              ).status,
            { timeout: 60_000, interval: 200 },
          )
          .toBe("completed");
        const run = await json<{
          summary: { cases: number; done: number; passed: number };
          results: Array<{ caseId: string; answer: string }>;
        }>({ service, org }, "GET", `/api/eval-runs/${started.id}`);
        expect(run.summary).toMatchObject({ cases: 8, done: 8, passed: 8 });
        expect(new Set(run.results.map((result) => result.caseId)).size).toBe(8);
        expect(run.results.every((result) => result.answer === "A considered answer")).toBe(true);
      } finally {
        fake.setDefaultChat(undefined);
      }
    },
    SLOW_TEST_MS,
  );
});
