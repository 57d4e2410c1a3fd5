import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { auditOf, call } from "./people-helpers.ts";

/**
 * GET and PATCH /api/organizations/{id}: every member reads the organization's name and
 * retention, owners and admins change them (docs/accounts.md, docs/retention.md).
 */

let app: TestApp;
let org: TestOrganization;
let other: TestOrganization;
let owner: SignedIn;
let admin: SignedIn;
let member: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  app = await startTestApp();
  org = await app.createOrganization("Settled");
  other = await app.createOrganization("Somewhere else");
  [owner, admin, member, viewer] = await Promise.all([
    memberOf(app, org, "owner"),
    memberOf(app, org, "admin"),
    memberOf(app, org, "member"),
    memberOf(app, org, "viewer"),
  ]);
}, 60_000);
afterAll(() => app.close());

const url = (id = org.id) => `/api/organizations/${id}`;
const patch = (headers: Record<string, string>, payload: unknown, id = org.id) =>
  call(app, "PATCH", url(id), headers, payload);

async function stored() {
  const response = await call(app, "GET", url(), owner.headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe("GET /api/organizations/{id}", () => {
  test("shows any member, and a full-access key, the name and retention", async () => {
    for (const headers of [viewer.headers, member.headers, org.auth]) {
      const response = await call(app, "GET", url(), headers);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        id: org.id,
        name: expect.any(String),
        conversationRetentionDays: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    }
  });

  test("refuses another organization's people and keys before reading it", async () => {
    const outsider = await memberOf(app, other, "owner");
    for (const headers of [outsider.headers, other.auth]) {
      const response = await call(app, "GET", url(), headers);
      expect(response.statusCode).toBe(403);
      expect(response.json().type).toBe("FORBIDDEN");
    }
    const unknown = await call(app, "GET", url("no-such-organization"), owner.headers);
    expect(unknown.statusCode).toBe(403);
  });
});

describe("PATCH /api/organizations/{id}", () => {
  test("lets an owner rename and an admin set the retention, each audited", async () => {
    const renamed = await patch(owner.headers, { name: "  Settled Ltd " });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: org.id, name: "Settled Ltd" });

    const kept = await patch(admin.headers, { conversationRetentionDays: 30 });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ name: "Settled Ltd", conversationRetentionDays: 30 });
    expect(await stored()).toMatchObject({ name: "Settled Ltd", conversationRetentionDays: 30 });

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
    const both = await patch(owner.headers, {
      name: "Settled Ltd",
      conversationRetentionDays: null,
    });
    expect(both.json()).toMatchObject({ name: "Settled Ltd", conversationRetentionDays: null });
    expect(await auditOf(app, org.id, "organization.settings_changed")).toHaveLength(1);
    expect(await auditOf(app, org.id, "retention.changed")).toHaveLength(2);
  });

  test("shows the new name in every member's session at once", async () => {
    const before = await call(app, "GET", "/api/auth/session", viewer.headers);
    expect(before.statusCode).toBe(200);
    await patch(admin.headers, { name: "Renamed for everyone" });
    const after = await call(app, "GET", "/api/auth/session", viewer.headers);
    expect(after.json().organizations).toEqual([
      { id: org.id, name: "Renamed for everyone", role: "viewer" },
    ]);
  });

  test("takes a full-access key, never a key with scopes", async () => {
    const viaKey = await patch(org.auth, { conversationRetentionDays: 90 });
    expect(viaKey.statusCode, viaKey.body).toBe(200);
    const [event] = (await auditOf(app, org.id, "retention.changed")).slice(-1);
    expect(event).toMatchObject({ actorType: "key", actorId: org.apiKeyId });

    const created = await call(app, "POST", "/api/api-keys", owner.headers, {
      name: "scoped",
      scopes: ["agents:read", "agents:write", "usage:read"],
    });
    expect(created.statusCode, created.body).toBe(201);
    const scoped = await patch(
      { authorization: `Bearer ${created.json().key}` },
      { conversationRetentionDays: 1 },
    );
    expect(scoped.statusCode).toBe(403);
    expect((await stored()).conversationRetentionDays).toBe(90);
  });

  test("refuses members, viewers and other organizations with 403, changing nothing", async () => {
    const outsider = await memberOf(app, other, "owner");
    const before = await stored();
    for (const headers of [member.headers, viewer.headers, outsider.headers, other.auth]) {
      const response = await patch(headers, { name: "Taken over" });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ type: "FORBIDDEN", error: expect.any(String) });
    }
    const refused = await patch(member.headers, { name: "Taken over" });
    expect(refused.json().error).toBe("The role member does not allow settings:write");
    expect(await stored()).toEqual(before);
  });

  test("refuses bad input with 400, changing nothing", async () => {
    const before = await stored();
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
      const response = await patch(owner.headers, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().type).toBe("INVALID_REQUEST");
    }
    expect(await stored()).toEqual(before);
    expect(await auditOf(app, org.id)).toHaveLength(events);

    const edges = await patch(owner.headers, {
      name: "x".repeat(100),
      conversationRetentionDays: 1,
    });
    expect(edges.json()).toMatchObject({ name: "x".repeat(100), conversationRetentionDays: 1 });
    const longest = await patch(owner.headers, { conversationRetentionDays: 36_500 });
    expect(longest.json().conversationRetentionDays).toBe(36_500);
  });
});
