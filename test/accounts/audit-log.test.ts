import { describe, expect } from "vitest";
import { createSeeder } from "../annotations/seed.ts";
import { memberOf, ownOrigin, type SignedIn, TEST_PASSWORD } from "../harness/accounts.ts";
import { ADMIN_TOKEN, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { IMPOSSIBLE_CURSORS } from "../harness/page-cursors.ts";

type AuditEvent = {
  id: string;
  action: string;
  actor: { type: string; id: string | null; email?: string };
  target: { type: string; id: string } | null;
  ip: string | null;
  userAgent: string | null;
  at: string;
  details: Record<string, unknown>;
};

const test = appTest({ offline: true, orgName: "Audited", funded: false }).extend(
  "admin",
  { scope: "file" },
  ({ app, org }) => memberOf(app, org, "admin"),
);
const adminToken = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function events(
  { app, admin }: { app: TestApp; admin: SignedIn },
  query = "",
  headers: Record<string, string> = admin.headers,
) {
  const response = await app.api.inject({ url: `/api/audit-events${query}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: AuditEvent[]; nextCursor: string | null };
}

describe("the audit log", () => {
  test("records each security action with who did it, from where, in the organization", async ({
    app,
    org,
    admin,
  }) => {
    const seeder = createSeeder(app);
    const agentId = await seeder.agent(org);
    const exchange = await seeder.exchange(org, agentId);
    const issued = await app.api.inject({
      method: "POST",
      url: `/api/admin/organizations/${org.id}/api-keys`,
      headers: adminToken,
      payload: { name: "ci" },
    });
    const keyId = issued.json().apiKeyId;
    await app.api.inject({
      method: "DELETE",
      url: `/api/admin/organizations/${org.id}/api-keys/${keyId}`,
      headers: adminToken,
    });
    await app.api.inject({
      method: "PATCH",
      url: `/api/admin/organizations/${org.id}`,
      headers: adminToken,
      payload: { conversationRetentionDays: 30 },
    });
    await app.api.inject({
      method: "PATCH",
      url: `/api/admin/organizations/${org.id}/billing`,
      headers: adminToken,
      payload: { plan: "pro" },
    });
    const erased = await app.api.inject({
      method: "DELETE",
      url: `/api/conversations/${exchange.conversationId}`,
      headers: { ...admin.headers, "user-agent": "audit-test/1.0" },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    await app.api.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: admin.email, password: "wrong password!" },
    });

    const { data } = await events({ app, admin }, "?limit=200");
    const byAction = new Map(data.map((event) => [event.action, event]));
    expect([...byAction.keys()]).toEqual(
      expect.arrayContaining([
        "login.succeeded",
        "login.failed",
        "key.created",
        "key.revoked",
        "retention.changed",
        "organization.settings_changed",
        "conversation.erased",
      ]),
    );
    expect(byAction.get("key.revoked")).toMatchObject({
      actor: { type: "admin", id: null },
      target: { type: "api_key", id: keyId },
    });
    expect(byAction.get("conversation.erased")).toMatchObject({
      actor: { type: "user", id: admin.userId, email: admin.email },
      target: { type: "conversation", id: exchange.conversationId },
      ip: "127.0.0.1",
    });
    expect(byAction.get("retention.changed")?.details).toEqual({ days: 30 });
    const text = JSON.stringify(data);
    expect(text).not.toContain(TEST_PASSWORD);
    expect(text).not.toContain("wrong password!");
    expect(text).not.toContain(issued.json().apiKey);
    expect(text).not.toContain(admin.headers.cookie.split("=")[1]);
  });

  test("pages newest first and filters by action and actor", async ({ app, admin }) => {
    const first = await events({ app, admin }, "?limit=2");
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await events({ app, admin }, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.data[0]!.at <= first.data[1]!.at).toBe(true);
    expect(second.data.map((event) => event.id)).not.toContain(first.data[1]!.id);
    const logins = await events({ app, admin }, "?action=login.succeeded");
    expect(logins.data.length).toBeGreaterThan(0);
    expect(logins.data.every((event) => event.action === "login.succeeded")).toBe(true);
    const mine = await events({ app, admin }, `?actorId=${admin.userId}`);
    expect(mine.data.every((event) => event.actor.id === admin.userId)).toBe(true);
    for (const cursor of ["nope", ...IMPOSSIBLE_CURSORS.map(([, impossible]) => impossible)]) {
      const bad = await app.api.inject({
        url: `/api/audit-events?cursor=${cursor}`,
        headers: admin.headers,
      });
      expect(bad.statusCode, cursor).toBe(400);
    }
  });

  test("is for owners and admins of the organization only", async ({ app, org, admin }) => {
    const member = await memberOf(app, org, "member");
    const refused = await app.api.inject({ url: "/api/audit-events", headers: member.headers });
    expect(refused.statusCode).toBe(403);
    const other = await app.createOrganization("Someone else");
    const otherAdmin = await memberOf(app, other, "owner");
    const theirs = await events({ app, admin }, "?limit=200", otherAdmin.headers);
    expect(theirs.data.every((event) => event.actor.id !== admin.userId)).toBe(true);
    // A full-access key of the organization reads its log too.
    const keyed = await events({ app, admin }, "?limit=1", org.auth);
    expect(keyed.data).toHaveLength(1);
    await app.api.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { cookie: member.headers.cookie, origin: ownOrigin(app) },
    });
    const logout = await events({ app, admin }, "?action=logout");
    expect(logout.data[0]).toMatchObject({ actor: { id: member.userId } });
  });
});
