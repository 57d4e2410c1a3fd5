import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import { describe, expect } from "vitest";
import { appTest } from "../harness/fixtures.ts";

/**
 * A client generated from the served dashboard document (openapi-typescript types, openapi-fetch
 * calls) type-checks with the project's TypeScript and works against the live API: the document
 * is precise enough to write a client from, errors included.
 */

const require = createRequire(import.meta.url);
const NODE_MODULES = fileURLToPath(new URL("../../node_modules", import.meta.url));
const TSC = join(dirname(require.resolve("typescript/package.json")), "bin", "tsc");

/** The program a client author would write; `@ts-expect-error` proves the types are not `any`. */
const CLIENT = `import createClient from "openapi-fetch";
import type { components, paths } from "./api.ts";

type ErrorType = components["schemas"]["Error"]["type"];

export async function run(baseUrl: string, apiKey: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${apiKey}\` } });

  const created = await client.POST("/api/agents", {
    body: { name: "Typed client", modelName: "gpt_4o_mini", systemPrompt: "Be brief." },
  });
  if (!created.data) throw new Error(\`create: \${created.response.status}\`);
  const agentId: string = created.data.id;

  const asked = await client.POST("/api/agents/{id}/query", {
    params: { path: { id: agentId } },
    body: { query: "When do you open?", channel: "api" },
  });
  // The document also offers the answer as an event stream (text), and a queued answer.
  if (typeof asked.data !== "object" || !("answer" in asked.data)) {
    throw new Error(\`query: \${asked.response.status}\`);
  }
  const answer: string = asked.data.answer;
  const totalTokens: number = asked.data.usage.totalTokens;

  const missing = await client.GET("/api/agents/{id}", {
    params: { path: { id: "no-such-agent" } },
  });
  if (!missing.error) throw new Error("a missing agent was found");
  const message: string = missing.error.error;
  const type: ErrorType = missing.error.type;
  // @ts-expect-error the error type is one of the error table's names, not any string
  const notAType: ErrorType = "NOT_A_TYPE";

  return { agentId, answer, totalTokens, status: missing.response.status, message, type, notAType };
}
`;

const test = appTest({ orgName: "Typed client" }).extend(
  "directory",
  { scope: "file" },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  async ({}, { onCleanup }) => {
    const directory = await mkdtemp(join(tmpdir(), "agentdesk-client-"));
    onCleanup(() => rm(directory, { recursive: true, force: true }));
    return directory;
  },
);

test.beforeAll(async ({ app, directory }) => {
  const document = (await app.api.inject({ url: "/api/openapi.json" })).json() as OpenAPI3;
  await writeFile(join(directory, "api.ts"), astToString(await openapiTS(document)));
  await writeFile(join(directory, "client.ts"), CLIENT);
  await writeFile(join(directory, "package.json"), JSON.stringify({ type: "module" }));
  await writeFile(
    join(directory, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2023",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noUncheckedIndexedAccess: true,
        allowImportingTsExtensions: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ["client.ts"],
    }),
  );
  await symlink(NODE_MODULES, join(directory, "node_modules"), "dir");
}, 60_000);

describe("a client generated from the dashboard document", () => {
  test("type-checks with the project's TypeScript", async ({ directory }) => {
    const checked = await promisify(execFile)(process.execPath, [TSC, "-p", directory]).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? "tsc failed" }),
    );
    expect(checked.stdout).toBe("");
  }, 60_000);

  test("creates an agent, queries it and reads a typed 404 from the live API", async ({
    app,
    fake,
    org,
    directory,
  }) => {
    fake.script({ text: "We open at nine.", usage: { promptTokens: 20, completionTokens: 5 } });
    const baseUrl = await app.listen("api");
    const client = (await import(pathToFileURL(join(directory, "client.ts")).href)) as {
      run(baseUrl: string, apiKey: string): Promise<Record<string, unknown>>;
    };
    const result = await client.run(baseUrl, org.apiKey);
    expect(result).toEqual({
      agentId: expect.any(String),
      answer: "We open at nine.",
      totalTokens: 25,
      status: 404,
      message: "Agent not found",
      type: "NOT_FOUND",
      notAType: "NOT_A_TYPE",
    });
    const stored = await app.api.inject({
      url: `/api/agents/${result.agentId}`,
      headers: org.auth,
    });
    expect(stored.json()).toMatchObject({ name: "Typed client", systemPrompt: "Be brief." });
  });
});
