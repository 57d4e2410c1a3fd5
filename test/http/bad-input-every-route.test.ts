import { sql } from "drizzle-orm";
import { describe, expect, vi } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { MAX_JSON_DEPTH } from "../../src/http/plugins/json-body.ts";
import { MALFORMED_MULTIPART_MESSAGE } from "../../src/http/plugins/multipart-form.ts";
import { createSeeder } from "../annotations/seed.ts";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import { ADMIN_TOKEN, type TestApp, type TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";

/**
 * Every route that can take a body, on both listeners, as the OpenAPI documents list them, gets
 * each kind of malformed or hostile body with and without credentials: never a 5xx, always the
 * listener's JSON envelope with the type the error table gives, and nothing stored changes.
 */

type Listener = "api" | "site";
type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: unknown;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
};
type OpenApiOperation = {
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string }>;
};
type OpenApi = { paths: Record<string, Record<string, OpenApiOperation>> };

type Route = {
  listener: Listener;
  /** "POST /api/agents/{id}", as documented. */
  name: string;
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  /**
   * Where the deep value goes: the first free-form object of the documented body (an agent's
   * `retrievalEvaluationConfig.additionalConfig.providerOptions`, usage `metadata`…), else its
   * first property.
   */
  deepPath: Array<string | number>;
  /**
   * What a caller without credentials gets, before the body is read: the documented refusal
   * (401, or the spec's 403), or null where an optional key lets anonymous callers in.
   */
  refusal: Outcome | null;
  /** Taken with a signed-in session only (the account's own routes). */
  sessionOnly: boolean;
};

/** What a listener answers: the dashboard's `type` or the site's `code`, with the status. */
type Outcome = [status: number, kind: string];

type BadBody = {
  name: string;
  contentType: string;
  payload(route: Route): string | Buffer;
  expected(route: Route): Outcome;
  /** The error message expected with a 400 validation type, when it is specific. */
  message?: string;
};

const BODY_METHODS = new Set(["post", "put", "patch", "delete"]);
/** The routes that read multipart/form-data; every other route refuses it as a content type. */
const MULTIPART_ROUTES = new Set([
  "POST /api/datasources",
  "POST /api/transcribe-audio",
  "POST /api/public/agents/{agentId}/transcribe-audio",
]);
const API_BODY_LIMIT = 1024 * 1024;
const SITE_BODY_LIMIT = 16 * 1024;
const TOO_DEEP = `The JSON body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`;

const nestedArrays = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const truncatedForm =
  '--abc\r\nContent-Disposition: form-data; name="type"\r\n\r\nfile\r\n' +
  '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n' +
  "Content-Type: text/plain\r\n\r\nThe part stops in the mid";

/** A multipart body: 400 where a form is read, 415 elsewhere; the site reads it as JSON. */
function multipart(name: string, contentType: string, payload: string | Buffer): BadBody {
  return {
    name,
    contentType,
    payload: () => payload,
    message: MALFORMED_MULTIPART_MESSAGE,
    expected(route) {
      if (route.listener === "site") return [400, "invalid_json"];
      return MULTIPART_ROUTES.has(route.name)
        ? [400, "INVALID_REQUEST"]
        : [415, "UNSUPPORTED_MEDIA_TYPE"];
    },
  };
}

const invalidRequest = (route: Route): Outcome =>
  route.listener === "api" ? [400, "INVALID_REQUEST"] : [400, "invalid_json"];
const tooDeep = (route: Route): Outcome =>
  route.listener === "api" ? [400, "INVALID_REQUEST"] : [400, "validation_error"];
const tooLarge = (route: Route): Outcome =>
  route.listener === "api" ? [413, "PAYLOAD_TOO_LARGE"] : [413, "payload_too_large"];

const BAD_BODIES: BadBody[] = [
  multipart("multipart without a boundary", "multipart/form-data", "xx"),
  multipart("multipart with an empty boundary", "multipart/form-data; boundary=", "xx"),
  multipart(
    "multipart with a 200-character boundary",
    `multipart/form-data; boundary=${"b".repeat(200)}`,
    `--${"c".repeat(200)}\r\n\r\nxx`,
  ),
  multipart(
    "multipart garbage",
    "multipart/form-data; boundary=abc",
    Buffer.from([0, 255, 13, 10, 45, 45, 97, 98, 99, 7, 13, 10]),
  ),
  multipart("multipart with a truncated part", "multipart/form-data; boundary=abc", truncatedForm),
  {
    name: "10,000 levels of arrays as the whole body",
    contentType: "application/json",
    payload: () => nestedArrays(10_000),
    // 10,000 levels take 20 KB: over the site's 16 KiB, which refuses it for its size first.
    expected: (route) => (route.listener === "site" ? tooLarge(route) : tooDeep(route)),
    message: TOO_DEEP,
  },
  {
    name: "10,000 levels of objects inside a field",
    contentType: "application/json",
    payload: (route) => withValueAt(route.deepPath, nestedObjects(10_000)),
    expected: (route) => (route.listener === "site" ? tooLarge(route) : tooDeep(route)),
    message: TOO_DEEP,
  },
  {
    name: "as many levels of arrays as the body cap holds",
    contentType: "application/json",
    payload: (route) =>
      nestedArrays(((route.listener === "api" ? API_BODY_LIMIT : SITE_BODY_LIMIT) - 2) / 2),
    expected: tooDeep,
    message: TOO_DEEP,
  },
  {
    name: "as many levels of objects inside a field as the body cap holds",
    contentType: "application/json",
    payload: (route) => {
      const limit = route.listener === "api" ? API_BODY_LIMIT : SITE_BODY_LIMIT;
      return withValueAt(route.deepPath, nestedObjects(Math.floor((limit - 200) / 6)));
    },
    expected: tooDeep,
    message: TOO_DEEP,
  },
  {
    name: "invalid JSON",
    contentType: "application/json",
    payload: () => '{"name": "cut',
    expected: invalidRequest,
  },
  {
    name: "a content type no route reads",
    contentType: "application/xml",
    payload: () => "<agent><name>x</name></agent>",
    expected: (route) =>
      route.listener === "api" ? [415, "UNSUPPORTED_MEDIA_TYPE"] : [400, "invalid_json"],
  },
  {
    name: "a body one byte over the listener's cap",
    contentType: "application/json",
    payload: (route) => {
      const limit = route.listener === "api" ? API_BODY_LIMIT : SITE_BODY_LIMIT;
      return withValueAt(route.deepPath, JSON.stringify("x".repeat(limit))).slice(0, limit + 1);
    },
    expected: tooLarge,
  },
];

const test = appTest({
  env: {
    LEAD_RATE_LIMIT_PER_MINUTE: "1000000",
    ANNOTATION_ANONYMOUS_RATE_LIMIT_PER_MINUTE: "1000000",
    TRANSCRIBE_RATE_LIMIT_PER_MINUTE: "1000000",
    PUBLIC_CHAT_RATE_LIMIT_PER_MINUTE: "1000000",
    PUBLIC_CHAT_IP_RATE_LIMIT_PER_MINUTE: "1000000",
  },
  offline: true,
  funded: false,
  orgName: "Every route",
});

let owner: SignedIn;
let routes: Route[];
let storedBefore: Record<string, string[]>;

/** Every row of every table of the application, as sorted JSON lines, per table. */
async function storedRows(app: TestApp): Promise<Record<string, string[]>> {
  const tables = rowsOf<{ name: string }>(
    await app.database.db.execute(
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    ),
  );
  const snapshot: Record<string, string[]> = {};
  for (const { name } of tables) {
    const rows = rowsOf<Record<string, unknown>>(
      await app.database.db.execute(sql`select * from ${sql.identifier(name)}`),
    );
    // Recorded at most once a minute per key when the key is used, whatever the answer.
    const kept = rows.map(({ last_used_at: _lastUsed, ...row }) => JSON.stringify(row));
    snapshot[name] = kept.sort();
  }
  return snapshot;
}

/** The documented operations that can carry a body, with real ids in their paths. */
async function documentedRoutes(app: TestApp, ids: Record<string, string>): Promise<Route[]> {
  const found: Route[] = [];
  for (const listener of ["api", "site"] as const) {
    const response = await app[listener].inject({ url: "/api/openapi.json" });
    const document = response.json() as OpenApi;
    for (const [path, operations] of Object.entries(document.paths)) {
      // The platforms' webhooks read raw bytes in the platform's own protocol, whatever the
      // content type (their bad input is tested per platform in test/channels/).
      if (path.startsWith("/channels/")) continue;
      for (const [method, operation] of Object.entries(operations)) {
        if (!BODY_METHODS.has(method)) continue;
        const url = path.replace(/\{(\w+)\}/g, (_match, param: string) => {
          const resource = `${path.split("/")[2]}.${param}`;
          const id = ids[resource];
          if (!id) throw new Error(`No id for {${param}} of ${path}: add one for ${resource}`);
          return id;
        });
        const schema = operation.requestBody?.content["application/json"]?.schema;
        found.push({
          listener,
          name: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase() as Route["method"],
          url,
          deepPath: freeFormPath(schema) ?? [
            Object.keys(schema?.properties ?? {})[0] ?? "metadata",
          ],
          refusal:
            (operation.security ?? []).length === 0 || operation.security?.some(isOpen)
              ? null
              : operation.responses?.["403"]?.description?.startsWith("No valid")
                ? [403, "FORBIDDEN"]
                : [401, "UNAUTHORIZED"],
          sessionOnly: JSON.stringify(operation.security) === '[{"session":[]}]',
        });
      }
    }
  }
  return found;
}

/** The path to the first object of any keys and values in a body schema, or null. */
function freeFormPath(
  schema: JsonSchema | undefined,
  path: Array<string | number> = [],
): Array<string | number> | null {
  if (!schema) return null;
  if (schema.type === "object" && !schema.properties && schema.additionalProperties !== false) {
    return path;
  }
  for (const option of schema.anyOf ?? []) {
    const found = freeFormPath(option, path);
    if (found) return found;
  }
  if (schema.items) return freeFormPath(schema.items, [...path, 0]);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const found = freeFormPath(property, [...path, name]);
    if (found) return found;
  }
  return null;
}

/** JSON text of a body holding `valueText` at `path` (`[]` is the whole body). */
function withValueAt(path: Array<string | number>, valueText: string): string {
  const marker = "__value__";
  let body: unknown = marker;
  for (const step of [...path].reverse())
    body = typeof step === "number" ? [body] : { [step]: body };
  return JSON.stringify(body).replace(`"${marker}"`, valueText);
}

const isOpen = (requirement: Record<string, string[]>) => Object.keys(requirement).length === 0;

function credentialsFor(org: TestOrganization, route: Route): Record<string, string> {
  if (route.listener === "site") return {};
  if (route.name.includes("/api/admin/")) return { authorization: `Bearer ${ADMIN_TOKEN}` };
  return route.sessionOnly ? owner.headers : org.auth;
}

test.beforeAll(async ({ app, org }) => {
  owner = await memberOf(app, org, "owner");
  const seeder = createSeeder(app);
  const agentId = await seeder.agent(org, { visibility: "public" });
  const exchange = await seeder.exchange(org, agentId);
  const annotation = await app.api.inject({
    method: "POST",
    url: "/api/annotations",
    headers: org.auth,
    payload: { messageId: exchange.agentMessageId, sentiment: "good", comment: "Right answer" },
  });
  const datastoreId = (await createDatastore(app, org)).id;
  const datasource = await addFile(app, org, datastoreId, {
    fileName: "hours.txt",
    contentType: "text/plain",
    content: "We are open Monday to Friday, 9:00 to 17:00.\n",
  });
  await waitForSync(app, org, datasource.id);
  const spareKey = await app.api.inject({
    method: "POST",
    url: `/api/admin/organizations/${org.id}/api-keys`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: {},
  });
  const client = app.client(org.auth);
  const evalSet = (await client.evals.createSet({ name: "Every route", agentId })).body;
  const evalCase = (await client.evals.addCase(evalSet.id, { question: "Open on Sunday?" })).body;
  const evalRun = (await client.evals.startRun({ evalSetId: evalSet.id })).body;
  // Over before the tables are compared: a run that ends during the test is a change.
  await vi.waitFor(
    async () => expect((await client.evals.getRun(evalRun.id)).body.status).toBe("completed"),
    { timeout: 20_000, interval: 50 },
  );
  routes = await documentedRoutes(app, {
    "eval-sets.id": evalSet.id,
    "eval-sets.caseId": evalCase.id,
    "eval-runs.id": evalRun.id,
    "agents.id": agentId,
    "agents.agentId": agentId,
    // The agent's only version: restoring it changes nothing.
    "agents.version": "1",
    // Nothing to change: a body that got through would find no channel.
    "channels.id": "no-such-channel",
    "event-subscriptions.id": "no-such-subscription",
    "public.agentId": agentId,
    "public.conversationId": exchange.conversationId,
    "public.messageId": exchange.agentMessageId,
    "annotations.id": annotation.json().id,
    "conversations.id": exchange.conversationId,
    "contacts.id": exchange.contactId ?? "no-contact",
    "datastores.id": datastoreId,
    "datastores.datastoreId": datastoreId,
    "datasources.id": datasource.id,
    "admin.id": org.id,
    "admin.keyId": spareKey.json().apiKeyId,
    "api-keys.id": spareKey.json().apiKeyId,
    "auth.token": "no-such-token",
    "organizations.id": org.id,
    // Nobody: a body that got through would find no member or invitation to change.
    "organizations.userId": "no-such-user",
    "organizations.invitationId": "no-such-invitation",
  });
  storedBefore = await storedRows(app);
}, 120_000);

type Mismatch = { route: string; expected: Outcome; got: [number, unknown] };

/** OpenAI's error `type` for the types of the dashboard table these bodies provoke (/v1 routes). */
const OPENAI_TYPES: Record<string, string> = {
  INVALID_REQUEST: "invalid_request_error",
  UNAUTHORIZED: "invalid_request_error",
  PAYLOAD_TOO_LARGE: "invalid_request_error",
  UNSUPPORTED_MEDIA_TYPE: "invalid_request_error",
};

/** Sends `bad` to every route and returns the answers that are not what the table says. */
async function sendToEveryRoute(
  { app, org }: { app: TestApp; org: TestOrganization },
  bad: BadBody,
  withCredentials: boolean,
): Promise<Mismatch[]> {
  const mismatches: Mismatch[] = [];
  for (const route of routes) {
    const response = await app[route.listener].inject({
      method: route.method,
      url: route.url,
      headers: {
        ...(withCredentials ? credentialsFor(org, route) : {}),
        "content-type": bad.contentType,
      },
      payload: bad.payload(route),
    });
    const expected = (!withCredentials && route.refusal) || bad.expected(route);
    const body = response.headers["content-type"]?.toString().startsWith("application/json")
      ? response.json()
      : response.body;
    const [status, kind] = expected;
    const envelopeOk = route.url.startsWith("/v1/")
      ? body?.error?.type === OPENAI_TYPES[kind] &&
        typeof body.error.message === "string" &&
        (bad.message === undefined ||
          kind !== "INVALID_REQUEST" ||
          body.error.message === bad.message)
      : route.listener === "api"
        ? body?.type === kind &&
          typeof body.error === "string" &&
          body.requestId === response.headers["x-request-id"] &&
          (bad.message === undefined || kind !== "INVALID_REQUEST" || body.error === bad.message)
        : body?.code === kind &&
          Object.keys(body).sort().join() === "code,error,hint" &&
          (bad.message === undefined || kind !== "validation_error" || body.error === bad.message);
    if (response.statusCode !== status || !envelopeOk) {
      mismatches.push({ route: route.name, expected, got: [response.statusCode, body] });
    }
  }
  return mismatches;
}

describe("bad bodies on every route that takes one", () => {
  test("finds the routes in both OpenAPI documents, admin routes included", () => {
    const names = routes.map((route) => route.name);
    for (const name of [
      "POST /api/agents",
      "PATCH /api/agents/{id}",
      "POST /api/usage/increment-agent-queries",
      "POST /api/datastores/update/{datastoreId}",
      "POST /api/datasources",
      "POST /api/transcribe-audio",
      "POST /api/admin/organizations",
      "DELETE /api/admin/organizations/{id}/api-keys/{keyId}",
      "PATCH /api/organizations/{id}",
      "POST /api/leads",
    ]) {
      expect(names).toContain(name);
    }
    expect(names.length).toBeGreaterThan(25);
    const deepPaths = Object.fromEntries(routes.map((route) => [route.name, route.deepPath]));
    expect(deepPaths).toMatchObject({
      "PATCH /api/agents/{id}": [
        "retrievalEvaluationConfig",
        "additionalConfig",
        "providerOptions",
      ],
      "POST /api/usage/increment-agent-queries": ["metadata"],
      "POST /api/datastores/update/{datastoreId}": ["metadata"],
      "POST /api/leads": ["name"],
    });
  });

  describe.each([
    ["with the organization's key (the admin token on admin routes)", true],
    ["without credentials", false],
  ])("%s", (_label, withCredentials) => {
    test.for(BAD_BODIES.map((bad) => [bad.name, bad] as const))(
      "%s: no 5xx, the listener's envelope and type",
      async ([_name, bad], { app, org }) => {
        expect(await sendToEveryRoute({ app, org }, bad, withCredentials)).toEqual([]);
      },
    );
  });

  test("changed nothing stored", async ({ app }) => {
    expect(await storedRows(app)).toEqual(storedBefore);
  });
});
