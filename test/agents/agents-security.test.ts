import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { createDatastore } from "../knowledge/knowledge-helpers.ts";

let app: TestApp;
let owner: TestOrganization;
let stranger: TestOrganization;
let agentId: string;
beforeAll(async () => {
  app = await startTestApp();
  owner = await app.createOrganization("Owner");
  stranger = await app.createOrganization("Stranger");
  agentId = (await createAgent(app, owner, { name: "Private one" })).id;
});
afterAll(() => app.close());

describe("agent endpoints without a valid key", () => {
  it.each([
    ["GET", "/api/agents"],
    ["POST", "/api/agents"],
    ["GET", "/api/agents/AGENT"],
    ["PATCH", "/api/agents/AGENT"],
    ["DELETE", "/api/agents/AGENT"],
    ["GET", "/api/conversations"],
    ["GET", "/api/conversations/whatever"],
    ["POST", "/api/agents/AGENT/query"],
    ["GET", "/api/agents/AGENT/conversations-export"],
  ] as const)("%s %s answers 401", async (method, path) => {
    for (const headers of [{}, { authorization: "Bearer adk_not-a-key" }]) {
      const response = await app.api.inject({
        method,
        url: path.replace("AGENT", agentId),
        headers,
        ...(method === "POST" || method === "PATCH" ? { payload: { name: "x", query: "hi" } } : {}),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({
        type: "UNAUTHORIZED",
        requestId: expect.any(String),
      });
    }
  });
});

describe("another organization's agent", () => {
  it("is invisible: 404 on read, change and delete, and absent from the list", async () => {
    const read = await app.api.inject({ url: `/api/agents/${agentId}`, headers: stranger.auth });
    expect(read.statusCode).toBe(404);
    const patch = await app.api.inject({
      method: "PATCH",
      url: `/api/agents/${agentId}`,
      headers: stranger.auth,
      payload: { name: "hijacked" },
    });
    expect(patch.statusCode).toBe(404);
    const remove = await app.api.inject({
      method: "DELETE",
      url: `/api/agents/${agentId}`,
      headers: stranger.auth,
    });
    expect(remove.statusCode).toBe(404);
    const list = await app.api.inject({ url: "/api/agents", headers: stranger.auth });
    expect(list.json()).toEqual([]);
    const still = await app.api.inject({ url: `/api/agents/${agentId}`, headers: owner.auth });
    expect(still.json().name).toBe("Private one");
  });

  it("cannot be given another organization's datastore", async () => {
    const foreign = await createDatastore(app, owner, { name: "Owner's secrets" });
    const response = await app.api.inject({
      method: "POST",
      url: "/api/agents",
      headers: stranger.auth,
      payload: { name: "Thief", datastoreIds: [foreign.id] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(`Unknown datastore in this organization: ${foreign.id}`);
    const viaTool = await app.api.inject({
      method: "PATCH",
      url: `/api/agents/${agentId}`,
      headers: owner.auth,
      payload: {
        tools: [{ type: "datastore", datastoreId: (await createDatastore(app, stranger)).id }],
      },
    });
    expect(viaTool.statusCode).toBe(400);
  });
});
