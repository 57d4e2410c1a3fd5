import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { unchecked } from "../harness/client.ts";

let app: TestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  app = await startTestApp();
  org = await app.createOrganization("Strict");
  agentId = (await createAgent(app, org)).id;
});
afterAll(() => app.close());

const create = (payload: unknown) => app.client(org.auth).agents.create(unchecked(payload));

describe("agent bodies that are refused with 400", () => {
  test.each([
    ["no name", {}, "body.name"],
    ["blank name", { name: "   " }, "body.name"],
    ["unknown model", { name: "a", modelName: "gpt_5" }, "body.modelName"],
    ["model given as provider id", { name: "a", modelName: "gpt-4o" }, "body.modelName"],
    ["unknown visibility", { name: "a", visibility: "secret" }, "body.visibility"],
    ["unknown prompt type", { name: "a", promptType: "persona" }, "body.promptType"],
    ["temperature too high", { name: "a", temperature: 3 }, "body.temperature"],
    ["temperature as text", { name: "a", temperature: "hot" }, "body.temperature"],
    ["tools not an array", { name: "a", tools: { type: "datastore" } }, "body.tools"],
    ["tool without type", { name: "a", tools: [{ id: "x" }] }, "body.tools.0.type"],
    ["datastoreIds not strings", { name: "a", datastoreIds: [1] }, "body.datastoreIds.0"],
    ["config not an object", { name: "a", followUpConfig: "daily" }, "body.followUpConfig"],
    [
      "follow-up count negative",
      { name: "a", followUpConfig: { count: -1 } },
      "body.followUpConfig.count",
    ],
    ["icon not a URL", { name: "a", iconUrl: "javascript:alert(1)" }, "body.iconUrl"],
  ])("%s", async (_label, payload, path) => {
    const response = await create(payload);
    expect(response.status).toBe(400);
    const body = response.error;
    expect(body.type).toBe("INVALID_REQUEST");
    expect(body.details?.map((detail) => detail.path)).toContain(path);
  });

  test("refuses a datastore tool without datastoreId", async () => {
    const response = await create({ name: "a", tools: [{ type: "datastore" }] });
    expect(response.status).toBe(400);
    expect(response.error.error).toBe("A datastore tool needs a datastoreId");
  });

  test("refuses a datastore that does not exist", async () => {
    const response = await create({ name: "a", datastoreIds: ["missing-datastore"] });
    expect(response.status).toBe(400);
    expect(response.error.error).toBe("Unknown datastore in this organization: missing-datastore");
  });

  test("refuses two tools with one id", async () => {
    const response = await create({
      name: "a",
      tools: [
        { id: "same", type: "form" },
        { id: "same", type: "http" },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.error.details).toEqual([
      { path: "body.tools.1.id", message: "is used by another tool" },
    ]);
  });

  test("refuses a body that is not JSON", async () => {
    const response = await app.client(org.auth).request({
      method: "POST",
      url: "/api/agents",
      headers: { "content-type": "application/json" },
      payload: "{name:",
    });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe("INVALID_REQUEST");
  });

  test("refuses bad PATCH bodies and leaves the agent unchanged", async () => {
    const response = await app
      .client(org.auth)
      .agents.update(agentId, unchecked({ modelName: "nope", name: "changed" }));
    expect(response.status).toBe(400);
    const agent = await app.client(org.auth).agents.get(agentId);
    expect(agent.body.name).toBe("Support");
  });

  test("answers 404 for an agent id that does not exist, on every method", async () => {
    for (const method of ["GET", "PATCH", "DELETE"] as const) {
      const response = await app.client(org.auth).request({
        method,
        url: "/api/agents/does-not-exist",
        ...(method === "PATCH" ? { payload: { name: "x" } } : {}),
      });
      expect(response.status).toBe(404);
      expect(response.body.type).toBe("NOT_FOUND");
    }
  });
});
