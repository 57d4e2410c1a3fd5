import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { describe, expect } from "vitest";
import { appTest } from "../harness/fixtures.ts";

/**
 * Both served OpenAPI documents pass Redocly's recommended ruleset without an error, so client
 * generators can read them. The warnings left are listed here, each with its reason.
 */

type Problem = {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: Array<{ source: { ref: string }; pointer: string }>;
};

const REDOCLY = (() => {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("@redocly/cli/package.json");
  return join(dirname(manifest), (require(manifest) as { bin: { redocly: string } }).bin.redocly);
})();

const ACCEPTED_WARNINGS = [
  // The repository declares no license, and the document does not invent one.
  "api.json info-license #/info",
  "site.json info-license #/info",
  // Both paths are the specification's: /api/datastores/update/query would match the two.
  "api.json no-ambiguous-paths #/paths/~1api~1datastores~1update~1{datastoreId}",
  // Health and readiness have no client error to answer: no input, no credentials.
  "api.json operation-4xx-response #/paths/~1api~1health/get/responses",
  "site.json operation-4xx-response #/paths/~1api~1health/get/responses",
  "api.json operation-4xx-response #/paths/~1api~1health~1ready/get/responses",
  "site.json operation-4xx-response #/paths/~1api~1health~1ready/get/responses",
  // Which ways to sign in there are: no input, no credentials, nothing to refuse.
  "api.json operation-4xx-response #/paths/~1api~1auth~1providers/get/responses",
  // Single sign-on moves a browser on: these answer with a redirect (302), not a 2xx.
  "api.json operation-2xx-response #/paths/~1api~1auth~1oidc~1login/get/responses",
  "api.json operation-2xx-response #/paths/~1api~1auth~1oidc~1callback/get/responses",
];

const test = appTest({ offline: true }).extend(
  "directory",
  { scope: "file" },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  async ({}, { onCleanup }) => {
    const directory = await mkdtemp(join(tmpdir(), "agentdesk-openapi-"));
    onCleanup(() => rm(directory, { recursive: true, force: true }));
    return directory;
  },
);

let problems: Problem[];

test.beforeAll(async ({ app, directory }) => {
  for (const listener of ["api", "site"] as const) {
    const response = await app[listener].inject({ url: "/api/openapi.json" });
    expect(response.statusCode).toBe(200);
    await writeFile(join(directory, `${listener}.json`), response.body);
  }
  // Redocly exits with 1 when it finds an error; the JSON report is on stdout either way.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [REDOCLY, "lint", "api.json", "site.json", "--extends=recommended", "--format=json"],
    {
      cwd: directory,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  // One JSON report per document, one after the other.
  const reports = JSON.parse(`[${stdout.replace(/}\s*{\s*"totals"/g, '},{"totals"')}]`) as Array<{
    problems: Problem[];
  }>;
  expect(reports).toHaveLength(2);
  problems = reports.flatMap((report) => report.problems);
}, 60_000);

const named = (problem: Problem) =>
  problem.location.map((at) => `${at.source.ref} ${problem.ruleId} ${at.pointer}`).join(" and ");

describe("the OpenAPI documents under Redocly's recommended rules", () => {
  test("have no error on either listener", () => {
    const errors = problems.filter((problem) => problem.severity === "error");
    expect(errors.map((error) => `${named(error)}: ${error.message}`)).toEqual([]);
  });

  test("have only the warnings explained above", () => {
    const warnings = problems.filter((problem) => problem.severity === "warn").map(named);
    expect(warnings.sort()).toEqual([...ACCEPTED_WARNINGS].sort());
  });
});
