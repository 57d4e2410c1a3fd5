import { describe, expect } from "vitest";
import { type ApiClient, unchecked } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true, orgName: "Strict", funded: false });

const create = (api: ApiClient, payload: unknown) => api.agents.create(unchecked(payload));

describe("agent bodies that are refused with 400", () => {
  test.for([
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
  ] as const)("%s", async ([_label, payload, path], { api }) => {
    const response = await create(api, payload);
    expect(response.status).toBe(400);
    const body = response.error;
    expect(body.type).toBe("INVALID_REQUEST");
    expect(body.details?.map((detail) => detail.path)).toContain(path);
  });

  test("refuses a datastore tool without datastoreId", async ({ api }) => {
    const response = await create(api, { name: "a", tools: [{ type: "datastore" }] });
    expect(response.status).toBe(400);
    expect(response.error.error).toBe("A datastore tool needs a datastoreId");
  });

  test("refuses a datastore that does not exist", async ({ api }) => {
    const response = await create(api, { name: "a", datastoreIds: ["missing-datastore"] });
    expect(response.status).toBe(400);
    expect(response.error.error).toBe("Unknown datastore in this organization: missing-datastore");
  });

  test("refuses two tools with one id", async ({ api }) => {
    const response = await create(api, {
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

  test("refuses a body that is not JSON", async ({ api }) => {
    const response = await api.request({
      method: "POST",
      url: "/api/agents",
      headers: { "content-type": "application/json" },
      payload: "{name:",
    });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe("INVALID_REQUEST");
  });

  test("refuses bad PATCH bodies and leaves the agent unchanged", async ({ api, agent }) => {
    const response = await api.agents.update(
      agent.id,
      unchecked({ modelName: "nope", name: "changed" }),
    );
    expect(response.status).toBe(400);
    const stored = await api.agents.get(agent.id);
    expect(stored.body.name).toBe("Support");
  });

  test("answers 404 for an agent id that does not exist, on every method", async ({ api }) => {
    for (const method of ["GET", "PATCH", "DELETE"] as const) {
      const response = await api.request({
        method,
        url: "/api/agents/does-not-exist",
        ...(method === "PATCH" ? { payload: { name: "x" } } : {}),
      });
      expect(response.status).toBe(404);
      expect(response.body.type).toBe("NOT_FOUND");
    }
  });
});
