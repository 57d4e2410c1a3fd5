import { describe, expect } from "vitest";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ orgName: "Owner", agent: { systemPrompt: "Owner's secret prompt." } });

let stranger: TestOrganization;
let owner: SignedIn;
test.beforeAll(async ({ app, org, api, agent }) => {
  stranger = await createFundedOrganization(app, "Stranger");
  owner = await memberOf(app, org, "owner");
  const changed = await api.agents.update(agent.id, { systemPrompt: "Second prompt." });
  expect(changed.body.version).toBe(2);
});

/** A key made by the organization's owner with these settings. */
async function keyWith(app: TestApp, payload: Record<string, unknown>) {
  const created = await app.api.inject({
    method: "POST",
    url: "/api/api-keys",
    headers: owner.headers,
    payload: { name: "limited", ...payload },
  });
  expect(created.statusCode, created.body).toBe(201);
  return app.client({ authorization: `Bearer ${created.json().key}` });
}

describe("another organization's agent", () => {
  test("has no versions to list, read or restore: 404 as an unknown agent", async ({
    app,
    api,
    agent,
  }) => {
    const theirs = app.client(stranger.auth);
    for (const response of [
      await theirs.agents.versions(agent.id),
      await theirs.agents.version(agent.id, 1),
      await theirs.agents.restoreVersion(agent.id, 1),
      await theirs.agents.versions("no-such-agent"),
      await theirs.agents.restoreVersion("no-such-agent", 1),
    ]) {
      expect(response.status).toBe(404);
      expect(response.error).toMatchObject({ type: "NOT_FOUND", error: "Agent not found" });
    }
    expect(JSON.stringify((await theirs.agents.version(agent.id, 1)).body)).not.toContain("secret");
    const mine = await api.agents.get(agent.id);
    expect(mine.body).toMatchObject({ version: 2, systemPrompt: "Second prompt." });
  });

  test("cannot be given an agent's version of ours by naming its number", async ({
    app,
    api,
    agent,
  }) => {
    const theirs = await createAgent(app, stranger, { systemPrompt: "Their prompt." });
    // Their agent has version 1 only; ours has 2. Each is looked up within its own agent.
    const restored = await app.client(stranger.auth).agents.restoreVersion(theirs.id, 2);
    expect(restored.status).toBe(404);
    expect((await api.agents.version(agent.id, 2)).body.fields.systemPrompt).toBe("Second prompt.");
  });
});

describe("version numbers", () => {
  test("that no version has are 404", async ({ api, agent }) => {
    for (const response of [
      await api.agents.version(agent.id, 3),
      await api.agents.restoreVersion(agent.id, 99),
      await api.agents.version(agent.id, 2_147_483_647),
    ]) {
      expect(response.status).toBe(404);
      expect(response.error).toMatchObject({ type: "NOT_FOUND" });
      expect(response.error.error).toMatch(/^Version \d+ not found$/);
    }
    expect((await api.agents.get(agent.id)).body.version).toBe(2);
  });

  test.for(["abc", "1.5", "0", "-1", "01", "1e2", "0x1", "2147483648", "99999999999"])(
    "that are not a version number (%s) are 400",
    async (version, { api, agent }) => {
      for (const response of [
        await api.agents.version(agent.id, version),
        await api.agents.restoreVersion(agent.id, version),
      ]) {
        expect(response.status).toBe(400);
        expect(response.error).toMatchObject({
          type: "INVALID_REQUEST",
          details: [expect.objectContaining({ path: "params.version" })],
        });
      }
      expect((await api.agents.get(agent.id)).body.version).toBe(2);
    },
  );
});

describe("keys", () => {
  test("for other agents are refused on this agent's versions (403)", async ({
    app,
    org,
    agent,
  }) => {
    const other = await createAgent(app, org, { name: "Other" });
    const limited = await keyWith(app, { agentIds: [other.id] });
    for (const response of [
      await limited.agents.versions(agent.id),
      await limited.agents.version(agent.id, 1),
      await limited.agents.restoreVersion(agent.id, 1),
    ]) {
      expect(response.status).toBe(403);
      expect(response.error.type).toBe("FORBIDDEN");
    }
    const own = await limited.agents.versions(other.id);
    expect(own.status).toBe(200);
    expect(own.body.versions.map((version) => version.version)).toEqual([1]);
  });

  test("that may only read agents list versions and cannot restore one", async ({
    app,
    api,
    agent,
  }) => {
    const reader = await keyWith(app, { scopes: ["agents:read"] });
    expect((await reader.agents.versions(agent.id)).status).toBe(200);
    expect((await reader.agents.version(agent.id, 1)).status).toBe(200);
    const refused = await reader.agents.restoreVersion(agent.id, 1);
    expect(refused.status).toBe(403);
    expect((await api.agents.get(agent.id)).body.version).toBe(2);
  });

  test("are required: none or a bad one is 401", async ({ app, agent }) => {
    for (const headers of [{}, { authorization: "Bearer adk_not-a-key" }]) {
      const client = app.client(headers);
      for (const response of [
        await client.agents.versions(agent.id),
        await client.agents.version(agent.id, 1),
        await client.agents.restoreVersion(agent.id, 1),
      ]) {
        expect(response.status).toBe(401);
        expect(response.error.type).toBe("UNAUTHORIZED");
      }
    }
  });
});

describe("a member who may not change agents", () => {
  test("reads the versions and cannot restore one", async ({ app, org, api, agent }) => {
    const viewer = await memberOf(app, org, "viewer");
    const client = app.client(viewer.headers);
    expect((await client.agents.versions(agent.id)).status).toBe(200);
    const refused = await client.agents.restoreVersion(agent.id, 1);
    expect(refused.status).toBe(403);
    expect((await api.agents.get(agent.id)).body.version).toBe(2);
  });
});
