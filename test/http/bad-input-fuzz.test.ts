import fc from "fast-check";
import { describe, expect } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/http/plugins/json-body.ts";
import { ERROR_STATUS } from "../../src/lib/errors.ts";
import { type KnowledgeFixtures, knowledgeTest } from "../knowledge/knowledge-helpers.ts";
import { deepJson, hostileMultipart } from "./hostile-bodies.ts";

const TOO_DEEP = `The JSON body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`;
const API_BODY_LIMIT = 1024 * 1024;
const SITE_BODY_LIMIT = 16 * 1024;

const test = knowledgeTest({
  env: { LEAD_RATE_LIMIT_PER_MINUTE: "1000000", TRANSCRIBE_RATE_LIMIT_PER_MINUTE: "1000000" },
  funded: true,
  orgName: "Fuzzed",
  agent: { visibility: "public" },
});

type Answer = { statusCode: number; headers: Record<string, unknown>; body: string };

/** A dashboard answer that is not a success is the envelope, with the status its type has. */
function expectApiAnswer(response: Answer, allowed: number[]) {
  expect(allowed).toContain(response.statusCode);
  if (response.statusCode < 400) return;
  const body = JSON.parse(response.body);
  expect(Object.keys(body).filter((key) => key !== "details")).toEqual([
    "error",
    "type",
    "requestId",
  ]);
  expect(ERROR_STATUS[body.type as keyof typeof ERROR_STATUS]).toBe(response.statusCode);
}

const listDatasources = async ({ app, org, datastore }: KnowledgeFixtures) =>
  (
    await app.api.inject({
      url: `/api/datastores/${datastore.id}/datasources`,
      headers: org.auth,
    })
  ).json() as unknown[];

describe("malformed multipart bodies never fail the server", () => {
  test("POST /api/datasources: 201 or a 4xx envelope; a datasource exactly for each 201", async ({
    app,
    org,
    datastore,
  }) => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(
        hostileMultipart([
          ["type", "file"],
          ["type", "web_page"],
          ["datastoreId", datastore.id],
          ["datastoreId", "no-such-datastore"],
          ["fileName", "Opening hours"],
          ["custom_id", "customer-1"],
        ]),
        async ({ contentType, body }) => {
          const response = await app.api.inject({
            method: "POST",
            url: "/api/datasources",
            headers: { ...org.auth, "content-type": contentType },
            payload: body,
          });
          expectApiAnswer(response, [201, 400, 404, 413]);
          if (response.statusCode === 201) created++;
        },
      ),
      { numRuns: 150 },
    );
    expect(await listDatasources({ app, org, datastore })).toHaveLength(created);
  });

  test("POST /api/transcribe-audio: a 4xx envelope, nothing charged", async ({
    app,
    org,
    agent,
  }) => {
    await fc.assert(
      fc.asyncProperty(
        hostileMultipart([
          ["agentId", agent.id],
          ["agentId", "no-such-agent"],
        ]),
        async ({ contentType, body }) => {
          const response = await app.api.inject({
            method: "POST",
            url: "/api/transcribe-audio",
            headers: { "content-type": contentType },
            payload: body,
          });
          expectApiAnswer(response, [400, 401, 413]);
        },
      ),
      { numRuns: 150 },
    );
    const events = await app.api.inject({
      url: "/api/consumption-events?feature=transcription",
      headers: org.auth,
    });
    expect(events.json().pagination.total).toBe(0);
  });
});

/** Where a deep value goes: a route, and the body around it (its levels count too). */
type DeepTarget = {
  listener: "api" | "site";
  method: "POST" | "PATCH";
  url: (agentId: string) => string;
  /** The body with `value` in a free-form place, and how many levels enclose that place. */
  wrap: (value: string) => string;
  enclosing: number;
  allowed: number[];
};

const TARGETS: Record<string, DeepTarget> = {
  "POST /api/agents (followUpConfig.config)": {
    listener: "api",
    method: "POST",
    url: () => "/api/agents",
    wrap: (value) => `{"name":"Deep","followUpConfig":{"config":{"k":${value}}}}`,
    enclosing: 3,
    allowed: [201],
  },
  "PATCH /api/agents/{id} (tools[0].config)": {
    listener: "api",
    method: "PATCH",
    url: (agentId) => `/api/agents/${agentId}`,
    wrap: (value) => `{"tools":[{"type":"form","config":{"k":${value}}}]}`,
    enclosing: 4,
    allowed: [200],
  },
  "POST /api/usage/increment-agent-queries (metadata)": {
    listener: "api",
    method: "POST",
    url: () => "/api/usage/increment-agent-queries",
    wrap: (value) => `{"provider":"openai","modelName":"gpt-4.1","metadata":{"k":${value}}}`,
    enclosing: 2,
    allowed: [200],
  },
  "POST /api/agents (the whole body)": {
    listener: "api",
    method: "POST",
    url: () => "/api/agents",
    wrap: (value) => value,
    enclosing: 0,
    allowed: [400],
  },
  "POST /api/leads (an unknown field)": {
    listener: "site",
    method: "POST",
    url: () => "/api/leads",
    wrap: (value) => `{"name":"Ann","email":"ann@example.com","extra":${value}}`,
    enclosing: 1,
    allowed: [201],
  },
};

describe(`JSON nested past ${MAX_JSON_DEPTH} levels is refused, and only that`, () => {
  test("answers exactly by depth: the depth refusal beyond the limit, never below it", async ({
    app,
    org,
    agent,
  }) => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(TARGETS)),
        fc.oneof(
          deepJson({ min: 1, max: MAX_JSON_DEPTH + 2 }),
          deepJson({ min: MAX_JSON_DEPTH, max: 20_000 }),
        ),
        async (targetName, deep) => {
          const target = TARGETS[targetName]!;
          const payload = target.wrap(deep.text);
          const depth = target.enclosing + deep.depth;
          const agentBefore = await app.api.inject({
            url: `/api/agents/${agent.id}`,
            headers: org.auth,
          });
          const response = await app[target.listener].inject({
            method: target.method,
            url: target.url(agent.id),
            headers: {
              ...(target.listener === "api" ? org.auth : {}),
              "content-type": "application/json",
            },
            payload,
          });
          const limit = target.listener === "api" ? API_BODY_LIMIT : SITE_BODY_LIMIT;
          const body = JSON.parse(response.body);
          if (Buffer.byteLength(payload) > limit) {
            expect(response.statusCode).toBe(413);
          } else if (depth > MAX_JSON_DEPTH) {
            expect(response.statusCode).toBe(400);
            expect(body.error).toBe(TOO_DEEP);
            expect(body.type ?? body.code).toBe(
              target.listener === "api" ? "INVALID_REQUEST" : "validation_error",
            );
            const agentAfter = await app.api.inject({
              url: `/api/agents/${agent.id}`,
              headers: org.auth,
            });
            expect(agentAfter.json()).toEqual(agentBefore.json());
          } else {
            expect(response.statusCode).toBeLessThan(500);
            expect(body.error).not.toBe(TOO_DEEP);
            // NUL, unpaired surrogates and (on the API) __proto__ keys are refused for what they
            // are; anything else is taken.
            const refusedAnyway =
              /\\u0000|\\ud800/.test(deep.text) ||
              (target.listener === "api" && deep.text.includes('"__proto__"'));
            expect(refusedAnyway ? [400] : target.allowed).toContain(response.statusCode);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
