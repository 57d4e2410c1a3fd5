import { describe, expect } from "vitest";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { auditOf, call } from "./people-helpers.ts";

/**
 * GET and PATCH /api/organizations/{id}: every member reads the organization's name and
 * retention, owners and admins change them (docs/accounts.md, docs/retention.md).
 */

const test = appTest({ offline: true, orgName: "Settled", funded: false })
  .extend("other", { scope: "file" }, ({ app }) => app.createOrganization("Somewhere else"))
  .extend("owner", { scope: "file" }, ({ app, org }) => memberOf(app, org, "owner"))
  .extend("admin", { scope: "file" }, ({ app, org }) => memberOf(app, org, "admin"))
  .extend("member", { scope: "file" }, ({ app, org }) => memberOf(app, org, "member"))
  .extend("viewer", { scope: "file" }, ({ app, org }) => memberOf(app, org, "viewer"));

type Settled = { app: TestApp; org: TestOrganization };

const url = (id: string) => `/api/organizations/${id}`;
const patch = (
  { app, org }: Settled,
  headers: Record<string, string>,
  payload: unknown,
  id = org.id,
) => call(app, "PATCH", url(id), headers, payload);

async function stored({ app, org, owner }: Settled & { owner: SignedIn }) {
  const response = await call(app, "GET", url(org.id), owner.headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe("GET /api/organizations/{id}", () => {
  test("shows any member, and a full-access key, the name and retention", async ({
    app,
    org,
    member,
    viewer,
  }) => {
    for (const headers of [viewer.headers, member.headers, org.auth]) {
      const response = await call(app, "GET", url(org.id), headers);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        id: org.id,
        name: expect.any(String),
        conversationRetentionDays: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    }
  });

  test("refuses another organization's people and keys before reading it", async ({
    app,
    org,
    other,
    owner,
  }) => {
    const outsider = await memberOf(app, other, "owner");
    for (const headers of [outsider.headers, other.auth]) {
      const response = await call(app, "GET", url(org.id), headers);
      expect(response.statusCode).toBe(403);
      expect(response.json().type).toBe("FORBIDDEN");
    }
    const unknown = await call(app, "GET", url("no-such-organization"), owner.headers);
    expect(unknown.statusCode).toBe(403);
  });
});

describe("PATCH /api/organizations/{id}", () => {
  test("lets an owner rename and an admin set the retention, each audited", async ({
    app,
    org,
    owner,
    admin,
  }) => {
    const renamed = await patch({ app, org }, owner.headers, { name: "  Settled Ltd " });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: org.id, name: "Settled Ltd" });

    const kept = await patch({ app, org }, admin.headers, { conversationRetentionDays: 30 });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ name: "Settled Ltd", conversationRetentionDays: 30 });
    expect(await stored({ app, org, owner })).toMatchObject({
      name: "Settled Ltd",
      conversationRetentionDays: 30,
    });

    const [rename] = await auditOf(app, org.id, "organization.settings_changed");
    expect(rename).toMatchObject({
      actorType: "user",
      actorId: owner.userId,
      actorEmail: owner.email,
      details: { name: "Settled Ltd", previousName: "Settled" },
    });
    const [retention] = await auditOf(app, org.id, "retention.changed");
    expect(retention).toMatchObject({
      actorType: "user",
      actorId: admin.userId,
      details: { days: 30, previousDays: null },
    });

    // Both at once, back to keeping everything; a value given unchanged records nothing.
    const both = await patch({ app, org }, owner.headers, {
      name: "Settled Ltd",
      conversationRetentionDays: null,
    });
    expect(both.json()).toMatchObject({ name: "Settled Ltd", conversationRetentionDays: null });
    expect(await auditOf(app, org.id, "organization.settings_changed")).toHaveLength(1);
    expect(await auditOf(app, org.id, "retention.changed")).toHaveLength(2);
  });

  test("shows the new name in every member's session at once", async ({
    app,
    org,
    admin,
    viewer,
  }) => {
    const before = await call(app, "GET", "/api/auth/session", viewer.headers);
    expect(before.statusCode).toBe(200);
    await patch({ app, org }, admin.headers, { name: "Renamed for everyone" });
    const after = await call(app, "GET", "/api/auth/session", viewer.headers);
    expect(after.json().organizations).toEqual([
      { id: org.id, name: "Renamed for everyone", role: "viewer" },
    ]);
  });

  test("takes a full-access key, never a key with scopes", async ({ app, org, owner }) => {
    const viaKey = await patch({ app, org }, org.auth, { conversationRetentionDays: 90 });
    expect(viaKey.statusCode, viaKey.body).toBe(200);
    const [event] = (await auditOf(app, org.id, "retention.changed")).slice(-1);
    expect(event).toMatchObject({ actorType: "key", actorId: org.apiKeyId });

    const created = await call(app, "POST", "/api/api-keys", owner.headers, {
      name: "scoped",
      scopes: ["agents:read", "agents:write", "usage:read"],
    });
    expect(created.statusCode, created.body).toBe(201);
    const scoped = await patch(
      { app, org },
      { authorization: `Bearer ${created.json().key}` },
      { conversationRetentionDays: 1 },
    );
    expect(scoped.statusCode).toBe(403);
    expect((await stored({ app, org, owner })).conversationRetentionDays).toBe(90);
  });

  test("refuses members, viewers and other organizations with 403, changing nothing", async ({
    app,
    org,
    other,
    owner,
    member,
    viewer,
  }) => {
    const outsider = await memberOf(app, other, "owner");
    const before = await stored({ app, org, owner });
    for (const headers of [member.headers, viewer.headers, outsider.headers, other.auth]) {
      const response = await patch({ app, org }, headers, { name: "Taken over" });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ type: "FORBIDDEN", error: expect.any(String) });
    }
    const refused = await patch({ app, org }, member.headers, { name: "Taken over" });
    expect(refused.json().error).toBe("The role member does not allow settings:write");
    expect(await stored({ app, org, owner })).toEqual(before);
  });

  test("refuses bad input with 400, changing nothing", async ({ app, org, owner }) => {
    const before = await stored({ app, org, owner });
    const events = (await auditOf(app, org.id)).length;
    for (const body of [
      { name: "" },
      { name: "   " },
      { name: "x".repeat(101) },
      { conversationRetentionDays: 0 },
      { conversationRetentionDays: 36_501 },
      { conversationRetentionDays: "x" },
      { conversationRetentionDays: 1.5 },
      { plan: "enterprise" },
      {},
    ]) {
      const response = await patch({ app, org }, owner.headers, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().type).toBe("INVALID_REQUEST");
    }
    expect(await stored({ app, org, owner })).toEqual(before);
    expect(await auditOf(app, org.id)).toHaveLength(events);

    const edges = await patch({ app, org }, owner.headers, {
      name: "x".repeat(100),
      conversationRetentionDays: 1,
    });
    expect(edges.json()).toMatchObject({ name: "x".repeat(100), conversationRetentionDays: 1 });
    const longest = await patch({ app, org }, owner.headers, { conversationRetentionDays: 36_500 });
    expect(longest.json().conversationRetentionDays).toBe(36_500);
  });
});
