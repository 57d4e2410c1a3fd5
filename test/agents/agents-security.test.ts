import { describe, expect } from "vitest";
import type { TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { createDatastore } from "../knowledge/knowledge-helpers.ts";

const test = appTest({
  offline: true,
  orgName: "Owner",
  funded: false,
  agent: { name: "Private one" },
});

let stranger: TestOrganization;
test.beforeAll(async ({ app }) => {
  stranger = await app.createOrganization("Stranger");
});

describe("agent endpoints without a valid key", () => {
  test.for([
    ["GET", "/api/agents"],
    ["POST", "/api/agents"],
    ["GET", "/api/agents/AGENT"],
    ["PATCH", "/api/agents/AGENT"],
    ["DELETE", "/api/agents/AGENT"],
    ["GET", "/api/conversations"],
    ["GET", "/api/conversations/whatever"],
    ["POST", "/api/agents/AGENT/query"],
    ["GET", "/api/agents/AGENT/conversations-export"],
  ] as const)("%s %s answers 401", async ([method, path], { app, agent }) => {
    for (const headers of [{}, { authorization: "Bearer adk_not-a-key" }]) {
      const response = await app.client(headers).request({
        method,
        url: path.replace("AGENT", agent.id),
        ...(method === "POST" || method === "PATCH" ? { payload: { name: "x", query: "hi" } } : {}),
      });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({
        type: "UNAUTHORIZED",
        requestId: expect.any(String),
      });
    }
  });
});

describe("another organization's agent", () => {
  test("is invisible: 404 on read, change and delete, and absent from the list", async ({
    app,
    api,
    agent,
  }) => {
    const read = await app.client(stranger.auth).agents.get(agent.id);
    expect(read.status).toBe(404);
    const patch = await app.client(stranger.auth).agents.update(agent.id, { name: "hijacked" });
    expect(patch.status).toBe(404);
    const remove = await app.client(stranger.auth).agents.delete(agent.id);
    expect(remove.status).toBe(404);
    const list = await app.client(stranger.auth).agents.list();
    expect(list.body).toEqual([]);
    const still = await api.agents.get(agent.id);
    expect(still.body.name).toBe("Private one");
  });

  test("cannot be given another organization's datastore", async ({ app, org, api, agent }) => {
    const foreign = await createDatastore(app, org, { name: "Owner's secrets" });
    const response = await app
      .client(stranger.auth)
      .agents.create({ name: "Thief", datastoreIds: [foreign.id] });
    expect(response.status).toBe(400);
    expect(response.error.error).toBe(`Unknown datastore in this organization: ${foreign.id}`);
    const viaTool = await api.agents.update(agent.id, {
      tools: [{ type: "datastore", datastoreId: (await createDatastore(app, stranger)).id }],
    });
    expect(viaTool.status).toBe(400);
  });
});
