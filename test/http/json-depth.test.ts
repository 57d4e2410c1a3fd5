import { readFileSync } from "node:fs";
import { describe, expect } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/http/plugins/json-body.ts";
import {
  addFile,
  getDatasource,
  knowledgeTest,
  waitForSync,
} from "../knowledge/knowledge-helpers.ts";

const TOO_DEEP = `The JSON body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`;

const test = knowledgeTest({ funded: true, orgName: "Deep" })
  .extend("datasource", { scope: "file" }, async ({ app, org, datastore }) => {
    const datasource = await addFile(app, org, datastore.id, {
      fileName: "hours.txt",
      contentType: "text/plain",
      content: "We are open Monday to Friday, 9:00 to 17:00.\n",
    });
    return waitForSync(app, org, datasource.id);
  })
  .extend("send", { scope: "file" }, ({ app, org }) => {
    return (method: "POST" | "PATCH", url: string, payload: string) =>
      app.api.inject({
        method,
        url,
        headers: { ...org.auth, "content-type": "application/json" },
        payload,
      });
  })
  .extend("readAgent", { scope: "file" }, ({ app, org }) => {
    return async (id: string) =>
      (await app.api.inject({ url: `/api/agents/${id}`, headers: org.auth })).json();
  })
  .extend("agentCount", { scope: "file" }, ({ app, org }) => {
    return async () =>
      (await app.api.inject({ url: "/api/agents", headers: org.auth })).json().length;
  })
  .extend("eventCount", { scope: "file" }, ({ app, org }) => {
    return async () =>
      (await app.api.inject({ url: "/api/consumption-events", headers: org.auth })).json()
        .pagination.total;
  });

/** JSON text of objects nested `levels` deep ({"a":{"a":…}}), `inner` at the bottom. */
const nestedObjects = (levels: number, inner = "1") =>
  `${'{"a":'.repeat(levels)}${inner}${"}".repeat(levels)}`;

/** JSON text of arrays nested `levels` deep ([[…]]). */
const nestedArrays = (levels: number, inner = "1") =>
  `${"[".repeat(levels)}${inner}${"]".repeat(levels)}`;

/**
 * A body whose free-form field at `path` holds objects nested so that the whole body is `depth`
 * levels deep: the body is level 1, each object on the path one more.
 */
function bodyOfDepth(fields: Record<string, unknown>, path: string[], depth: number): string {
  const marker = "__nested__";
  let value: unknown = marker;
  for (const key of [...path].reverse()) value = { [key]: value };
  const text = JSON.stringify({ ...fields, ...(value as object) });
  return text.replace(`"${marker}"`, nestedObjects(depth - path.length));
}

function expectTooDeep(response: { statusCode: number; json(): unknown }) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({
    error: TOO_DEEP,
    type: "INVALID_REQUEST",
    requestId: expect.any(String),
  });
}

// The free-form objects of an agent (the spec: "inner structure not shown").
const AGENT_FIELDS: Array<[string, string[]]> = [
  ["followUpConfig.config", ["followUpConfig", "config"]],
  ["retrievalEvaluationConfig.additionalConfig", ["retrievalEvaluationConfig", "additionalConfig"]],
  [
    "retrievalEvaluationConfig.modelTemperatures",
    ["retrievalEvaluationConfig", "modelTemperatures"],
  ],
  ["retrievalEvaluationConfig.modelMaxTokens", ["retrievalEvaluationConfig", "modelMaxTokens"]],
];

describe(`JSON bodies nest at most ${MAX_JSON_DEPTH} levels`, () => {
  test("stores a free-form object that brings the body to the limit, and reads it back as sent", async ({
    send,
    readAgent,
  }) => {
    const payload = bodyOfDepth({ name: "Deep" }, ["followUpConfig", "config"], MAX_JSON_DEPTH);
    const created = await send("POST", "/api/agents", payload);
    expect(created.statusCode).toBe(201);
    const stored = await readAgent(created.json().id);
    expect(stored.followUpConfig).toEqual(JSON.parse(payload).followUpConfig);
  });

  test("refuses one level more, before anything is stored", async ({ send, agentCount }) => {
    const before = await agentCount();
    const payload = bodyOfDepth({ name: "Deep" }, ["followUpConfig", "config"], MAX_JSON_DEPTH + 1);
    expectTooDeep(await send("POST", "/api/agents", payload));
    expect(await agentCount()).toBe(before);
  });

  test.for(AGENT_FIELDS)(
    "POST /api/agents with %s 10,000 levels deep → 400",
    async ([_label, path], { send, agentCount }) => {
      const before = await agentCount();
      expectTooDeep(await send("POST", "/api/agents", bodyOfDepth({ name: "a" }, path, 10_000)));
      expect(await agentCount()).toBe(before);
    },
  );

  test("POST /api/agents with a tool's config 10,000 levels of arrays deep → 400", async ({
    send,
  }) => {
    const payload = `{"name":"a","tools":[{"type":"form","config":{"a":${nestedArrays(10_000)}}}]}`;
    expectTooDeep(await send("POST", "/api/agents", payload));
  });

  test.for(AGENT_FIELDS)(
    "PATCH /api/agents/{id} with %s 10,000 levels deep → 400, agent unchanged",
    async ([_label, path], { agent, send, readAgent }) => {
      const before = await readAgent(agent.id);
      const payload = bodyOfDepth({ name: "changed" }, path, 10_000);
      expectTooDeep(await send("PATCH", `/api/agents/${agent.id}`, payload));
      expect(await readAgent(agent.id)).toEqual(before);
    },
  );

  test("PATCH /api/agents/{id} with a tool's config 10,000 levels deep → 400, agent unchanged", async ({
    agent,
    send,
    readAgent,
  }) => {
    const before = await readAgent(agent.id);
    const payload = `{"tools":[{"type":"form","config":${nestedObjects(10_000)}}]}`;
    expectTooDeep(await send("PATCH", `/api/agents/${agent.id}`, payload));
    expect(await readAgent(agent.id)).toEqual(before);
  });

  test("POST /api/usage/increment-agent-queries: metadata at the limit is recorded, 10,000 levels is 400 and charges nothing", async ({
    send,
    eventCount,
  }) => {
    const fields = { provider: "openai", modelName: "gpt-4.1", inputTokens: 10 };
    const atLimit = await send(
      "POST",
      "/api/usage/increment-agent-queries",
      bodyOfDepth(fields, ["metadata"], MAX_JSON_DEPTH),
    );
    expect(atLimit.statusCode).toBe(200);
    const before = await eventCount();
    expectTooDeep(
      await send(
        "POST",
        "/api/usage/increment-agent-queries",
        bodyOfDepth(fields, ["metadata"], 10_000),
      ),
    );
    expect(await eventCount()).toBe(before);
  });

  test("POST /api/datastores/update/{id} with metadata 10,000 levels deep → 400, datasource unchanged", async ({
    app,
    org,
    datastore,
    datasource,
    send,
  }) => {
    const before = await getDatasource(app, org, datasource.id);
    const payload = bodyOfDepth({ id: datasource.id, text: "New text" }, ["metadata"], 10_000);
    expectTooDeep(await send("POST", `/api/datastores/update/${datastore.id}`, payload));
    expect(await getDatasource(app, org, datasource.id)).toEqual(before);
  });

  test("refuses a whole body of 10,000 levels, and one of arrays up to the 1 MiB body cap", async ({
    send,
  }) => {
    expectTooDeep(await send("POST", "/api/agents", nestedObjects(10_000)));
    const levels = 500_000;
    expectTooDeep(await send("POST", "/api/agents", nestedArrays(levels)));
  });

  test("refuses deep nesting around an escaped NUL as too deep, without walking it", async ({
    send,
  }) => {
    const payload = `{"name":"a","followUpConfig":{"config":${nestedObjects(10_000, '"\\u0000"')}}}`;
    expectTooDeep(await send("POST", "/api/agents", payload));
  });

  test("counts brackets inside strings as text, not nesting", async ({ send, readAgent }) => {
    const brackets = `[{\\"${"[{".repeat(5_000)}`;
    const payload = `{"name":"Brackets","systemPrompt":"${brackets}","description":"\\\\"}`;
    const created = await send("POST", "/api/agents", payload);
    expect(created.statusCode).toBe(201);
    const stored = await readAgent(created.json().id);
    expect(stored.systemPrompt).toBe(JSON.parse(payload).systemPrompt);
    expect(stored.description).toBe("\\");
  });
});

describe("the docs", () => {
  test("state the limit the parser applies, and its message", () => {
    const read = (name: string) =>
      readFileSync(new URL(`../../docs/${name}`, import.meta.url), "utf8").replace(/\s+/g, " ");
    const architecture = read("architecture.md");
    expect(architecture).toContain(
      `**Nesting depth: ${MAX_JSON_DEPTH} levels** (\`MAX_JSON_DEPTH\`)`,
    );
    expect(architecture).toContain(`"${TOO_DEEP}"`);
    expect(read("agents.md")).toContain(`the body's limit of ${MAX_JSON_DEPTH} levels`);
    expect(read("decisions.md")).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
  });
});
