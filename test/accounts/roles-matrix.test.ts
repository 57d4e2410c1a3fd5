import { describe, expect } from "vitest";
import {
  type Permission,
  ROLES,
  type Role,
  roleMay,
} from "../../src/domain/accounts/permissions.ts";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

/**
 * Every operation of the served document that declares a permission, called by a signed-in
 * user of each of the four roles: the roles the permission table refuses get 403 (401 on the
 * query endpoint, as the spec says) before anything is read; the others get past the check.
 * Bodies are malformed and ids unknown, so nothing is changed by the allowed calls.
 */

type Operation = { "x-permission"?: Permission; security?: unknown[] };
type Documented = { method: string; path: string; permission: Permission };

const METHODS = new Set(["get", "post", "put", "patch", "delete"]);
const PERMISSION_REFUSAL = /does not allow/;

/**
 * `users`: a signed-in user of each role in `org`; `operations`: the document's operations that
 * declare a permission.
 */
const test = appTest({
  offline: true,
  env: { ANNOTATION_ANONYMOUS_RATE_LIMIT_PER_MINUTE: "1000000" },
  orgName: "Roles",
  funded: false,
})
  .extend("users", { scope: "file" }, async ({ app, org }) => {
    const users = {} as Record<Role, SignedIn>;
    for (const role of ROLES) users[role] = await memberOf(app, org, role);
    return users;
  })
  .extend("operations", { scope: "file" }, async ({ app }): Promise<Documented[]> => {
    const document = (await app.api.inject({ url: "/api/openapi.json" })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    return Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod)
        .filter(([method, op]) => METHODS.has(method) && op["x-permission"] !== undefined)
        // An event stream never ends, so it cannot be called here; every role may read it
        // (conversations:read), and test/events/ checks who may open it.
        .filter(([method]) => !(path === "/api/events" && method === "get"))
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          permission: op["x-permission"]!,
        })),
    );
  });

type Caller = { app: TestApp; org: TestOrganization; users: Record<Role, SignedIn> };

async function call({ app, org, users }: Caller, operation: Documented, role: Role) {
  // The organization acted on is the users' own; every other id is unknown.
  const url = operation.path
    .replace(/^\/api\/organizations\/\{id\}/, `/api/organizations/${org.id}`)
    .replace(/\{\w+\}/g, "unknown-id");
  const withBody = operation.method !== "GET" && operation.method !== "DELETE";
  return app.api.inject({
    method: operation.method as "GET",
    url,
    headers: {
      ...users[role].headers,
      ...(withBody ? { "content-type": "application/json" } : {}),
    },
    ...(withBody ? { payload: "{" } : {}),
  });
}

describe("the roles matrix", () => {
  test("covers every route that takes a key or a session", ({ operations }) => {
    expect(operations.length).toBeGreaterThan(45);
    expect(new Set(operations.map((op) => op.permission))).toContain("audit:read");
  });

  test.for(ROLES)(
    "%s: refused exactly where the permission table says",
    async (role, { app, org, users, operations }) => {
      const wrong: string[] = [];
      for (const operation of operations) {
        const response = await call({ app, org, users }, operation, role);
        // The OpenAI-compatible API answers in OpenAI's error shape.
        const error = operation.path.startsWith("/v1/")
          ? response.json().error?.message
          : response.json().error;
        const refused =
          [401, 403].includes(response.statusCode) && PERMISSION_REFUSAL.test(String(error));
        const expected = !roleMay(role, operation.permission);
        const status = operation.path === "/api/agents/{id}/query" ? 401 : 403;
        if (refused !== expected || (refused && response.statusCode !== status)) {
          wrong.push(
            `${operation.method} ${operation.path}: ${response.statusCode} ${response.body.slice(0, 120)}`,
          );
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  test("lets a viewer read and not write, a member work and not manage, an admin manage", () => {
    expect(roleMay("viewer", "agents:read")).toBe(true);
    expect(roleMay("viewer", "agents:write")).toBe(false);
    expect(roleMay("viewer", "query")).toBe(false);
    expect(roleMay("member", "query")).toBe(true);
    expect(roleMay("member", "knowledge:write")).toBe(true);
    expect(roleMay("member", "members:write")).toBe(false);
    expect(roleMay("member", "audit:read")).toBe(false);
    expect(roleMay("admin", "members:write")).toBe(true);
    expect(roleMay("admin", "keys:write")).toBe(true);
    expect(roleMay("admin", "billing:write")).toBe(false);
    expect(roleMay("owner", "billing:write")).toBe(true);
  });
});
