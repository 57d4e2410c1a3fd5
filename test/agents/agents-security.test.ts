import { afterAll, beforeAll, describe, expect, test } from "vitest";
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
  test.each([
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
      const response = await app.client(headers).request({
        method,
        url: path.replace("AGENT", agentId),
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
  test("is invisible: 404 on read, change and delete, and absent from the list", async () => {
    const read = await app.client(stranger.auth).agents.get(agentId);
    expect(read.status).toBe(404);
    const patch = await app.client(stranger.auth).agents.update(agentId, { name: "hijacked" });
    expect(patch.status).toBe(404);
    const remove = await app.client(stranger.auth).agents.delete(agentId);
    expect(remove.status).toBe(404);
    const list = await app.client(stranger.auth).agents.list();
    expect(list.body).toEqual([]);
    const still = await app.client(owner.auth).agents.get(agentId);
    expect(still.body.name).toBe("Private one");
  });

  test("cannot be given another organization's datastore", async () => {
    const foreign = await createDatastore(app, owner, { name: "Owner's secrets" });
    const response = await app
      .client(stranger.auth)
      .agents.create({ name: "Thief", datastoreIds: [foreign.id] });
    expect(response.status).toBe(400);
    expect(response.error.error).toBe(`Unknown datastore in this organization: ${foreign.id}`);
    const viaTool = await app.client(owner.auth).agents.update(agentId, {
      tools: [{ type: "datastore", datastoreId: (await createDatastore(app, stranger)).id }],
    });
    expect(viaTool.status).toBe(400);
  });
});
