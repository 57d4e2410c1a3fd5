import { describe, expect, vi } from "vitest";
import { memberOf } from "../harness/accounts.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { auditOf, call, roleIn } from "./people-helpers.ts";

const test = appTest({ offline: true, orgName: "People", funded: false })
  // A second API process on the same database, to see changes reach other processes.
  .extend("other", { scope: "file" }, async ({ app }, { onCleanup }) => {
    const other = await startTestApp({ database: app.database, role: "api" });
    onCleanup(() => other.close());
    return other;
  })
  .extend("owner", { scope: "file" }, ({ app, org }) => memberOf(app, org, "owner"))
  .extend("admin", { scope: "file" }, ({ app, org }) => memberOf(app, org, "admin"))
  .extend("viewer", { scope: "file" }, ({ app, org }) => memberOf(app, org, "viewer"));

const membersUrl = (organizationId: string, userId?: string) =>
  `/api/organizations/${organizationId}/members${userId ? `/${userId}` : ""}`;

/** A fresh organization whose only owner is a signed-in user. */
async function soleOwnerOrganization(app: TestApp) {
  const organization = await app.createOrganization("Sole owner");
  const only = await memberOf(app, organization, "owner");
  // The admin API's organization comes with an owner of its own (its keys' holder): removed.
  const removed = await call(
    app,
    "DELETE",
    membersUrl(organization.id, organization.userId),
    only.headers,
  );
  expect(removed.statusCode).toBe(204);
  return { organization, only };
}

describe("GET /api/organizations/{id}/members", () => {
  test("lists every member with their role to any member, oldest first", async ({
    app,
    org,
    owner,
    admin,
    viewer,
  }) => {
    const response = await call(app, "GET", membersUrl(org.id), viewer.headers);
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.map((m: { userId: string }) => m.userId)).toEqual([
      org.userId,
      owner.userId,
      admin.userId,
      viewer.userId,
    ]);
    expect(data[3]).toEqual({
      userId: viewer.userId,
      email: viewer.email,
      name: "viewer",
      role: "viewer",
      joinedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const withKey = await call(app, "GET", membersUrl(org.id), org.auth);
    expect(withKey.json()).toEqual(response.json());
  });

  test("never shows another organization's members to a session or a key", async ({
    app,
    org,
    owner,
  }) => {
    const elsewhere = await app.createOrganization("Elsewhere");
    for (const headers of [owner.headers, org.auth]) {
      const response = await call(app, "GET", membersUrl(elsewhere.id), headers);
      expect(response.statusCode).toBe(403);
      expect(response.json().type).toBe("FORBIDDEN");
      expect(response.body).not.toContain(elsewhere.userId);
    }
  });
});

describe("PATCH /api/organizations/{id}/members/{userId}", () => {
  test("lets an admin change a member's role, recorded in the audit log", async ({
    app,
    org,
    admin,
  }) => {
    const member = await memberOf(app, org, "member");
    const response = await call(app, "PATCH", membersUrl(org.id, member.userId), admin.headers, {
      role: "viewer",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ userId: member.userId, role: "viewer" });
    expect(await roleIn(app, org.id, member.userId)).toBe("viewer");
    const [event] = await auditOf(app, org.id, "member.role_changed");
    expect(event).toMatchObject({
      actorType: "user",
      actorId: admin.userId,
      targetType: "user",
      targetId: member.userId,
      details: { from: "member", to: "viewer" },
    });
  });

  test("refuses an admin who would make an owner or change an owner, changing nothing", async ({
    app,
    org,
    owner,
    admin,
  }) => {
    const member = await memberOf(app, org, "member");
    const promote = await call(app, "PATCH", membersUrl(org.id, member.userId), admin.headers, {
      role: "owner",
    });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().error).toBe(
      "Only an owner may make someone owner or change or remove an owner",
    );
    const demote = await call(app, "PATCH", membersUrl(org.id, owner.userId), admin.headers, {
      role: "member",
    });
    expect(demote.statusCode).toBe(403);
    const remove = await call(app, "DELETE", membersUrl(org.id, owner.userId), admin.headers);
    expect(remove.statusCode).toBe(403);
    expect(await roleIn(app, org.id, member.userId)).toBe("member");
    expect(await roleIn(app, org.id, owner.userId)).toBe("owner");
  });

  test("lets an owner, and the organization's own key, make owners", async ({
    app,
    org,
    owner,
  }) => {
    const first = await memberOf(app, org, "member");
    const second = await memberOf(app, org, "member");
    const bySession = await call(app, "PATCH", membersUrl(org.id, first.userId), owner.headers, {
      role: "owner",
    });
    expect(bySession.statusCode).toBe(200);
    // The admin API's key belongs to the organization's first owner: it acts as one.
    const byKey = await call(app, "PATCH", membersUrl(org.id, second.userId), org.auth, {
      role: "owner",
    });
    expect(byKey.statusCode).toBe(200);
    expect(await roleIn(app, org.id, second.userId)).toBe("owner");
    const [, keyEvent] = await auditOf(app, org.id, "member.role_changed").then((events) =>
      events.filter((event) => event.details.to === "owner"),
    );
    expect(keyEvent).toMatchObject({ actorType: "key", actorId: org.apiKeyId });
  });

  test("refuses members and viewers, and roles that do not exist", async ({
    app,
    org,
    owner,
    admin,
    viewer,
  }) => {
    const member = await memberOf(app, org, "member");
    for (const headers of [member.headers, viewer.headers]) {
      const response = await call(app, "PATCH", membersUrl(org.id, admin.userId), headers, {
        role: "viewer",
      });
      expect(response.statusCode).toBe(403);
    }
    const bad = await call(app, "PATCH", membersUrl(org.id, member.userId), owner.headers, {
      role: "superuser",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().type).toBe("INVALID_REQUEST");
    const missing = await call(app, "PATCH", membersUrl(org.id, "nobody"), owner.headers, {
      role: "viewer",
    });
    expect(missing.statusCode).toBe(404);
    expect(await roleIn(app, org.id, admin.userId)).toBe("admin");
  });

  test("keeps the last owner: neither demoted nor removed (409)", async ({ app }) => {
    const { organization, only } = await soleOwnerOrganization(app);
    const demote = await call(
      app,
      "PATCH",
      membersUrl(organization.id, only.userId),
      only.headers,
      { role: "admin" },
    );
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({
      type: "CONFLICT",
      error: "The organization's last owner cannot be demoted: make another member owner first",
    });
    const leave = await call(app, "DELETE", membersUrl(organization.id, only.userId), only.headers);
    expect(leave.statusCode).toBe(409);
    expect(leave.json().error).toContain("last owner cannot be removed");
    expect(await roleIn(app, organization.id, only.userId)).toBe("owner");

    // With a second owner, the first may step down, and then the second is the last.
    const second = await memberOf(app, organization, "owner");
    const stepDown = await call(
      app,
      "PATCH",
      membersUrl(organization.id, only.userId),
      second.headers,
      { role: "admin" },
    );
    expect(stepDown.statusCode).toBe(200);
    const last = await call(
      app,
      "PATCH",
      membersUrl(organization.id, second.userId),
      second.headers,
      { role: "member" },
    );
    expect(last.statusCode).toBe(409);
  });

  test("refuses a demoted user's next request at once, here and in another process", async ({
    app,
    other,
    org,
    owner,
    viewer,
  }) => {
    const demoted = await memberOf(app, org, "admin");
    const url = membersUrl(org.id, viewer.userId);
    // Both processes have verified (and keep) the session as an admin's.
    for (const process of [app, other]) {
      const allowed = await call(process, "PATCH", url, demoted.headers, { role: "viewer" });
      expect(allowed.statusCode).toBe(200);
    }
    const change = await call(app, "PATCH", membersUrl(org.id, demoted.userId), owner.headers, {
      role: "viewer",
    });
    expect(change.statusCode).toBe(200);
    const here = await call(app, "PATCH", url, demoted.headers, { role: "viewer" });
    expect(here.statusCode).toBe(403);
    expect(here.json().error).toBe("The role viewer does not allow members:write");
    // Well within the minute a process may keep a verified session.
    await vi.waitFor(
      async () => {
        const there = await call(other, "PATCH", url, demoted.headers, { role: "viewer" });
        expect(there.statusCode).toBe(403);
      },
      { timeout: 5_000, interval: 50 },
    );
  });
});

describe("DELETE /api/organizations/{id}/members/{userId}", () => {
  test("removes a member, who is refused at once, recorded in the audit log", async ({
    app,
    org,
    admin,
  }) => {
    const member = await memberOf(app, org, "member");
    expect((await call(app, "GET", membersUrl(org.id), member.headers)).statusCode).toBe(200);
    const removed = await call(app, "DELETE", membersUrl(org.id, member.userId), admin.headers);
    expect(removed.statusCode).toBe(204);
    expect(await roleIn(app, org.id, member.userId)).toBeNull();
    const after = await call(app, "GET", membersUrl(org.id), member.headers);
    expect(after.statusCode).toBe(403);
    expect(after.json().error).toBe(`You are not a member of organization ${org.id}`);
    const events = await auditOf(app, org.id, "member.removed");
    expect(events.find((event) => event.targetId === member.userId)).toMatchObject({
      actorId: admin.userId,
      details: { role: "member", left: false },
    });
    const again = await call(app, "DELETE", membersUrl(org.id, member.userId), admin.headers);
    expect(again.statusCode).toBe(404);
  });

  test("lets an owner or admin leave; members and viewers ask an admin", async ({
    app,
    org,
    viewer,
  }) => {
    const leaving = await memberOf(app, org, "admin");
    const left = await call(app, "DELETE", membersUrl(org.id, leaving.userId), leaving.headers);
    expect(left.statusCode).toBe(204);
    const events = await auditOf(app, org.id, "member.removed");
    expect(events.find((event) => event.targetId === leaving.userId)?.details).toEqual({
      role: "admin",
      left: true,
    });
    const stays = await call(app, "DELETE", membersUrl(org.id, viewer.userId), viewer.headers);
    expect(stays.statusCode).toBe(403);
    expect(await roleIn(app, org.id, viewer.userId)).toBe("viewer");
  });
});
