import { describe, expect } from "vitest";
import { createSeeder } from "../annotations/seed.ts";
import { ADMIN_TOKEN, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { addFile, createDatastore } from "../knowledge/knowledge-helpers.ts";

/**
 * Every operation of the served dashboard document that needs a key (or the admin token) refuses
 * every kind of bad credential before anything else: before the body is parsed or validated and
 * before the ids in its path are looked up (another organization's ids here). It answers the
 * refusal it documents, which is the spec's: 401 in the error envelope, 403 on follow-up/query,
 * and a plain-text 403 `Forbidden` on the credits balance. Operations with an optional key refuse
 * credentials that are sent but not valid alike. A new route is picked up from the document.
 */

type MediaType = { schema?: { $ref?: string; type?: string } };
type Operation = {
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
};
type OpenApi = { paths: Record<string, Record<string, Operation>> };

type Refusal = { status: 401 | 403; media: "application/json" | "text/plain"; type?: string };
type Access = "key" | "admin" | "optional" | "session" | "public";
type Documented = { name: string; method: string; path: string; access: Access; op: Operation };

const UNAUTHORIZED: Refusal = { status: 401, media: "application/json", type: "UNAUTHORIZED" };
/** The spec's exceptions to the 401 envelope. */
const SPEC_REFUSALS: Record<string, Refusal> = {
  "POST /api/agents/{id}/follow-up/query": {
    status: 403,
    media: "application/json",
    type: "FORBIDDEN",
  },
  "GET /api/credits/balance": { status: 403, media: "text/plain" },
};
const refusalOf = (operation: Documented) => SPEC_REFUSALS[operation.name] ?? UNAUTHORIZED;

const ERROR_REF = "#/components/schemas/Error";
/** The OpenAI-compatible API (/v1) answers in OpenAI's error shape. */
const OPENAI_ERROR_REF = "#/components/schemas/OpenAIError";
const isOpenAi = (operation: Documented) => operation.path.startsWith("/v1/");
const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

const test = appTest({
  env: { ANNOTATION_ANONYMOUS_RATE_LIMIT_PER_MINUTE: "1000000" },
  offline: true,
  funded: false,
  orgName: "Caller",
});

let revokedKey: string;
let operations: Documented[];
/** Ids of resources of ANOTHER organization, by `<first path segment after /api>.<param>`. */
let otherIds: Record<string, string>;

function accessOf(security: Operation["security"]): Access {
  const shape = JSON.stringify(security ?? []);
  const known: Record<string, Access> = {
    '[{"apiKey":[]},{"session":[]}]': "key",
    '[{"adminToken":[]},{"session":[]}]': "admin",
    '[{},{"apiKey":[]},{"session":[]}]': "optional",
    '[{"session":[]}]': "session",
    '[{},{"session":[]}]': "public",
    "[]": "public",
  };
  const access = known[shape];
  if (!access) throw new Error(`Unknown security ${shape}`);
  return access;
}

function urlOf(operation: Documented): string {
  return operation.path.replace(/\{(\w+)\}/g, (_match, param: string) => {
    const resource = `${operation.path.split("/")[2]}.${param}`;
    const id = otherIds[resource];
    if (!id) throw new Error(`No id of another organization for ${resource}: add one`);
    return id;
  });
}

test.beforeAll(async ({ app, org }) => {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const spare = await app.api.inject({
    method: "POST",
    url: `/api/admin/organizations/${org.id}/api-keys`,
    headers: admin,
    payload: { name: "to revoke" },
  });
  revokedKey = spare.json().apiKey;
  const revoked = await app.api.inject({
    method: "DELETE",
    url: `/api/admin/organizations/${org.id}/api-keys/${spare.json().apiKeyId}`,
    headers: admin,
  });
  expect(revoked.statusCode).toBe(204);

  const other = await app.createOrganization("Another organization");
  const seeder = createSeeder(app);
  const agentId = await seeder.agent(other);
  const exchange = await seeder.exchange(other, agentId);
  const annotation = await app.api.inject({
    method: "POST",
    url: "/api/annotations",
    headers: other.auth,
    payload: { messageId: exchange.agentMessageId, sentiment: "good", comment: "Fine" },
  });
  const datastoreId = (await createDatastore(app, other)).id;
  const datasource = await addFile(app, other, datastoreId, {
    fileName: "hours.txt",
    contentType: "text/plain",
    content: "Open 9 to 5.\n",
  });
  otherIds = {
    "agents.id": agentId,
    "agents.agentId": agentId,
    "agents.version": "1",
    // Refused before any lookup: an id that names nothing does as well as another's.
    "channels.id": "no-such-channel",
    "event-subscriptions.id": "no-such-subscription",
    "eval-sets.id": "no-such-eval-set",
    "eval-sets.caseId": "no-such-case",
    "eval-runs.id": "no-such-eval-run",
    "models.model": agentId,
    "annotations.id": annotation.json().id,
    "conversations.id": exchange.conversationId,
    "contacts.id": exchange.contactId ?? "no-contact",
    "datastores.id": datastoreId,
    "datastores.datastoreId": datastoreId,
    "datasources.id": datasource.id,
    "admin.id": other.id,
    "admin.keyId": other.apiKeyId,
    "organizations.id": other.id,
    "organizations.userId": other.userId,
    "organizations.invitationId": "no-such-invitation",
    "auth.token": "no-such-token",
    "api-keys.id": other.apiKeyId,
  };

  const document = (await app.api.inject({ url: "/api/openapi.json" })).json() as OpenApi;
  operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        access: accessOf(op.security),
        op,
      })),
  );
}, 120_000);

type Credential = { name: string; authorization?: string; for: Access[] };

/** Bad credentials, and the kinds of operation that must refuse each. */
const BAD_CREDENTIALS: Credential[] = [
  { name: "no Authorization header", for: ["key", "admin", "session"] },
  {
    name: "Basic credentials",
    authorization: "Basic dXNlcjpwYXNzd29yZA==",
    for: ["key", "admin", "optional"],
  },
  { name: "an empty bearer token", authorization: "Bearer ", for: ["key", "admin", "optional"] },
  {
    name: "a garbled bearer token",
    authorization: "Bearer ad_%%not a key%%",
    for: ["key", "admin", "optional"],
  },
  { name: "a bearer without a token", authorization: "Bearer", for: ["key", "admin", "optional"] },
];

type Body = { name: string; payload?: string };
const NO_BODY: Body = { name: "no body" };
const BAD_BODIES: Body[] = [
  { name: "an invalid body", payload: JSON.stringify({ query: 42, name: ["x"], unknown: {} }) },
  { name: "malformed JSON", payload: '{"query": "cut' },
];

type Mismatch = { operation: string; credential: string; body: string; got: unknown };

/** Sends `authorization` with every body variant to `operation`; returns what was not refused. */
async function refusals(
  app: TestApp,
  operation: Documented,
  credential: string,
  authorization: string | undefined,
): Promise<Mismatch[]> {
  const expected = refusalOf(operation);
  const bodies = operation.op.requestBody ? BAD_BODIES : [NO_BODY];
  const mismatches: Mismatch[] = [];
  for (const body of bodies) {
    const response = await app.api.inject({
      method: operation.method as "GET",
      url: urlOf(operation),
      headers: {
        ...(authorization === undefined ? {} : { authorization }),
        ...(body.payload === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body.payload === undefined ? {} : { payload: body.payload }),
    });
    const contentType = String(response.headers["content-type"] ?? "");
    const ok =
      response.statusCode === expected.status &&
      contentType.startsWith(expected.media) &&
      (expected.media === "text/plain"
        ? response.body === "Forbidden"
        : isOpenAi(operation)
          ? response.json().error?.code === "invalid_api_key" &&
            typeof response.json().error?.message === "string"
          : response.json().type === expected.type &&
            typeof response.json().error === "string" &&
            response.json().requestId === response.headers["x-request-id"]);
    if (!ok) {
      mismatches.push({
        operation: operation.name,
        credential,
        body: body.name,
        got: [response.statusCode, contentType, response.body.slice(0, 200)],
      });
    }
  }
  return mismatches;
}

describe("every operation that needs credentials", () => {
  test("is found in the document: every route declares its access", () => {
    const byAccess = (access: Access) => operations.filter((op) => op.access === access).length;
    expect(byAccess("key")).toBeGreaterThan(30);
    expect(byAccess("admin")).toBe(12);
    expect(byAccess("optional")).toBe(4);
  });

  test("documents exactly the refusal it answers, with the error body", () => {
    const wrong: string[] = [];
    for (const operation of operations.filter((op) => op.access !== "public")) {
      const expected = operation.access === "optional" ? UNAUTHORIZED : refusalOf(operation);
      const documented = operation.op.responses[String(expected.status)]?.content ?? {};
      const schema = documented[expected.media]?.schema;
      const right =
        Object.keys(documented).join() === expected.media &&
        (expected.media === "text/plain"
          ? schema?.type === "string"
          : schema?.$ref === (isOpenAi(operation) ? OPENAI_ERROR_REF : ERROR_REF));
      // The 401 stays free for the services' own refusals (another organization) where the spec
      // answers a missing key with 403, but a 401 refusal comes with a 403 beside it only where
      // a role or key scopes may be refused, or a signed-in user who is not an instance
      // administrator (the admin API).
      const permission = (operation.op as { "x-permission"?: string })["x-permission"];
      const stray =
        expected.status === 401 &&
        operation.op.responses["403"] !== undefined &&
        (permission === undefined || permission === "identity") &&
        operation.access !== "session" &&
        operation.access !== "admin";
      const textWith401 = expected.media === "text/plain" && operation.op.responses["401"];
      if (!right || stray || textWith401) wrong.push(operation.name);
    }
    expect(wrong).toEqual([]);
  });

  test.for(BAD_CREDENTIALS.map((credential) => [credential.name, credential] as const))(
    "%s: refused before the body and the ids of another organization are read",
    async ([_name, credential], { app }) => {
      const mismatches: Mismatch[] = [];
      for (const operation of operations.filter((op) => credential.for.includes(op.access))) {
        mismatches.push(
          ...(await refusals(app, operation, credential.name, credential.authorization)),
        );
      }
      expect(mismatches).toEqual([]);
    },
  );

  test("a revoked key: refused on every operation that reads a key", async ({ app }) => {
    const mismatches: Mismatch[] = [];
    for (const operation of operations.filter(
      (op) => op.access === "key" || op.access === "optional",
    )) {
      mismatches.push(...(await refusals(app, operation, "a revoked key", `Bearer ${revokedKey}`)));
    }
    expect(mismatches).toEqual([]);
  });

  test("an organization's valid API key is not the admin token", async ({ app, org }) => {
    const mismatches: Mismatch[] = [];
    for (const operation of operations.filter((op) => op.access === "admin")) {
      mismatches.push(...(await refusals(app, operation, "an API key", org.auth.authorization)));
    }
    expect(mismatches).toEqual([]);
  });
});
