import { describe, expect } from "vitest";
import { KEY_SCOPES, keyMay, type Permission } from "../../src/domain/accounts/permissions.ts";
import { createSeeder } from "../annotations/seed.ts";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import type { TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { addFile, createDatastore } from "../knowledge/knowledge-helpers.ts";

/**
 * Keys made by users, on every operation of the served document that takes a key: a key whose
 * scopes do not grant the operation's `x-permission` is refused before anything else (403, or
 * the spec's 401 on the query endpoint and its plain-text 403 on the credits balance), and a key
 * limited to some agents is refused on every operation that names another agent in its path.
 * New routes are picked up from the document.
 */

type Operation = {
  security?: Array<Record<string, string[]>>;
  "x-permission"?: Permission;
};
type OpenApi = { paths: Record<string, Record<string, Operation>> };
type Documented = { name: string; method: string; path: string; permission: Permission };

const METHODS = new Set(["get", "post", "put", "patch", "delete"]);
const KEYED = new Set(['[{"apiKey":[]},{"session":[]}]', '[{},{"apiKey":[]},{"session":[]}]']);
/** The spec's exceptions to 403 FORBIDDEN. */
const REFUSALS: Record<string, number> = { "POST /api/agents/{id}/query": 401 };

const test = appTest({
  offline: true,
  env: { ANNOTATION_ANONYMOUS_RATE_LIMIT_PER_MINUTE: "1000000" },
  orgName: "Scoped",
  funded: false,
}).extend("owner", { scope: "file" }, ({ app, org }) => memberOf(app, org, "owner"));

let operations: Documented[];
/** Ids of the organization's own resources, the agent a key may use among them. */
let ownIds: Record<string, string>;
let otherAgentId: string;
let otherConversationId: string;
let keyAgentConversationId: string;

test.beforeAll(async ({ app, org }) => {
  const seeder = createSeeder(app);
  const agentId = await seeder.agent(org);
  otherAgentId = await seeder.agent(org);
  const exchange = await seeder.exchange(org, agentId);
  keyAgentConversationId = exchange.conversationId;
  otherConversationId = (await seeder.exchange(org, otherAgentId)).conversationId;
  const annotation = await app.api.inject({
    method: "POST",
    url: "/api/annotations",
    headers: org.auth,
    payload: { messageId: exchange.agentMessageId, sentiment: "good", comment: "Fine" },
  });
  const datastoreId = (await createDatastore(app, org)).id;
  const datasource = await addFile(app, org, datastoreId, {
    fileName: "hours.txt",
    contentType: "text/plain",
    content: "Open 9 to 5.\n",
  });
  ownIds = {
    "agents.id": agentId,
    "models.model": agentId,
    "annotations.id": annotation.json().id,
    "conversations.id": exchange.conversationId,
    "contacts.id": exchange.contactId ?? "no-contact",
    "datastores.id": datastoreId,
    "datastores.datastoreId": datastoreId,
    "datasources.id": datasource.id,
    "api-keys.id": org.apiKeyId,
    "organizations.id": org.id,
  };
  const document = (await app.api.inject({ url: "/api/openapi.json" })).json() as OpenApi;
  operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(([method, op]) => METHODS.has(method) && KEYED.has(JSON.stringify(op.security)))
      .map(([method, op]) => ({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        permission: op["x-permission"]!,
      })),
  );
}, 120_000);

async function makeKey(
  { app, owner }: { app: TestApp; owner: SignedIn },
  payload: Record<string, unknown>,
): Promise<string> {
  const created = await app.api.inject({
    method: "POST",
    url: "/api/api-keys",
    headers: owner.headers,
    payload: { name: "scoped", ...payload },
  });
  if (created.statusCode !== 201) throw new Error(`create key: ${created.body}`);
  return created.json().key;
}

/** The operation's path with the organization's ids, and `agentId` for the agent's. */
function urlOf(operation: Documented, agentId?: string): string {
  return operation.path.replace(/\{(\w+)\}/g, (_match, param: string) => {
    const resource = `${operation.path.split("/")[2]}.${param}`;
    if (agentId && (resource === "agents.id" || resource === "models.model")) return agentId;
    return ownIds[resource] ?? "no-such-id";
  });
}

async function send(app: TestApp, operation: Documented, key: string, agentId?: string) {
  const body = operation.method === "GET" || operation.method === "DELETE" ? undefined : "{}";
  return app.api.inject({
    method: operation.method as "GET",
    url: urlOf(operation, agentId),
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { "content-type": "application/json" } : {}),
    },
    ...(body ? { payload: body } : {}),
  });
}

describe("a key made with scopes", () => {
  test("is refused on every operation its scopes do not grant", async ({ app, owner }) => {
    const keyed = operations.filter((op) => op.permission !== "identity");
    expect(keyed.length).toBeGreaterThan(30);
    const keys = new Map<Permission, string>();
    const wrong: unknown[] = [];
    for (const operation of keyed) {
      let key = keys.get(operation.permission);
      if (!key) {
        // Every scope but those that grant the permission (all of them for role-only ones).
        key = await makeKey(
          { app, owner },
          {
            scopes: KEY_SCOPES.filter((scope) => !keyMay([scope], operation.permission)),
          },
        );
        keys.set(operation.permission, key);
      }
      const response = await send(app, operation, key);
      const expected = REFUSALS[operation.name] ?? 403;
      if (response.statusCode !== expected) {
        wrong.push([operation.name, response.statusCode, response.body.slice(0, 160)]);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  test("is let in where its scopes grant the operation", async ({ app, owner }) => {
    const key = await makeKey({ app, owner }, { scopes: ["agents:read", "conversations:read"] });
    const agents = await app.api.inject({
      url: "/api/agents",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(agents.statusCode).toBe(200);
    const conversation = await app.api.inject({
      url: `/api/conversations/${keyAgentConversationId}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(conversation.statusCode).toBe(200);
  });
});

describe("a key made for some agents", () => {
  let key: string;
  let bearer: { authorization: string };
  test.beforeAll(async ({ app, owner }) => {
    key = await makeKey({ app, owner }, { agentIds: [ownIds["agents.id"]] });
    bearer = { authorization: `Bearer ${key}` };
  });

  test("is refused on every operation that names another agent in its path", async ({ app }) => {
    const naming = operations.filter((op) =>
      /^\/(api\/agents\/\{id\}|v1\/models\/\{model\})/.test(op.path),
    );
    expect(naming.length).toBeGreaterThan(5);
    const wrong: unknown[] = [];
    for (const operation of naming) {
      const response = await send(app, operation, key, otherAgentId);
      const expected = REFUSALS[operation.name] ?? 403;
      if (response.statusCode !== expected) {
        wrong.push([operation.name, response.statusCode, response.body.slice(0, 160)]);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  test("lists only its agents, their conversations and annotations", async ({ app }) => {
    const agents = await app.api.inject({ url: "/api/agents", headers: bearer });
    expect(agents.json().map((agent: { id: string }) => agent.id)).toEqual([ownIds["agents.id"]]);
    const models = await app.api.inject({ url: "/v1/models", headers: bearer });
    expect(models.json().data.map((model: { id: string }) => model.id)).toEqual([
      ownIds["agents.id"],
    ]);
    const conversations = await app.api.inject({ url: "/api/conversations", headers: bearer });
    const listed = conversations.json().data.map((row: { agentId: string }) => row.agentId);
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed)).toEqual(new Set([ownIds["agents.id"]]));
    const annotations = await app.api.inject({ url: "/api/annotations", headers: bearer });
    expect(annotations.statusCode).toBe(200);
    expect(annotations.json().length).toBeGreaterThan(0);
    for (const item of annotations.json() as Array<{ agentId: string }>) {
      expect(item.agentId).toBe(ownIds["agents.id"]);
    }
  });

  test("reads the usage of its agents only", async ({ app }) => {
    const events = await app.api.inject({ url: "/api/consumption-events", headers: bearer });
    expect(events.statusCode).toBe(200);
    const agents = (events.json().data as Array<{ agentId: string | null }>).map((e) => e.agentId);
    expect(new Set(agents)).toEqual(new Set([ownIds["agents.id"]]));
    const range = "startDate=2020-01-01&endDate=2099-01-01&groupBy=agent";
    const summary = (query: string) =>
      app.api.inject({ url: `/api/consumption-events/summary?${range}${query}`, headers: bearer });
    expect((await summary("")).statusCode).toBe(403);
    expect((await summary(`&agentId=${otherAgentId}`)).statusCode).toBe(403);
    expect((await summary(`&agentId=${ownIds["agents.id"]}`)).statusCode).toBe(200);
  });

  test("cannot read, filter by or answer with another agent", async ({ app, org }) => {
    const read = await app.api.inject({
      url: `/api/conversations/${otherConversationId}`,
      headers: bearer,
    });
    expect(read.statusCode).toBe(404);
    const erase = await app.api.inject({
      method: "DELETE",
      url: `/api/conversations/${otherConversationId}`,
      headers: bearer,
    });
    expect(erase.statusCode).toBe(404);
    const filtered = await app.api.inject({
      url: `/api/conversations?agentId=${otherAgentId}`,
      headers: bearer,
    });
    expect(filtered.statusCode).toBe(403);
    // A contact may have talked with any agent.
    const contact = await app.api.inject({
      method: "DELETE",
      url: `/api/contacts/${ownIds["contacts.id"]}`,
      headers: bearer,
    });
    expect(contact.statusCode).toBe(403);
    const completion = await app.api.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: bearer,
      payload: { model: otherAgentId, messages: [{ role: "user", content: "hello" }] },
    });
    expect(completion.statusCode).toBe(403);
    // The conversation another agent has is still there for the organization's full key.
    const stillThere = await app.api.inject({
      url: `/api/conversations/${otherConversationId}`,
      headers: org.auth,
    });
    expect(stillThere.statusCode).toBe(200);
  });

  test("lists and asks only its agents over MCP", async ({ app }) => {
    const call = (id: number, name: string, args: Record<string, unknown>) =>
      app.api.inject({
        method: "POST",
        url: "/mcp",
        headers: { ...bearer, accept: "application/json, text/event-stream" },
        payload: { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } },
      });
    const listed = await call(1, "list_agents", {});
    expect(listed.body).toContain(ownIds["agents.id"]);
    expect(listed.body).not.toContain(otherAgentId);
    const asked = await call(2, "query_agent", { agentId: otherAgentId, query: "hello" });
    expect(asked.body).toContain("cannot use agent");
  });
});
