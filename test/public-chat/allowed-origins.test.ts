import { describe, expect } from "vitest";
import { appTest } from "../harness/fixtures.ts";

const test = appTest();

describe("allowedOrigins of the agent API", () => {
  test("is empty by default, set on create, replaced on update, returned in the view", async ({
    api,
  }) => {
    const created = await api.agents.create({ name: "Widget", visibility: "public" });
    expect(created.status).toBe(201);
    expect(created.body.allowedOrigins).toEqual([]);

    const listed = await api.agents.create({
      name: "Shop widget",
      allowedOrigins: ["https://shop.example.com", "http://localhost:8080"],
    });
    expect(listed.status).toBe(201);
    expect(listed.body.allowedOrigins).toEqual([
      "https://shop.example.com",
      "http://localhost:8080",
    ]);

    const updated = await api.agents.update(listed.body.id, {
      allowedOrigins: ["https://www.example.com"],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.allowedOrigins).toEqual(["https://www.example.com"]);
    expect((await api.agents.get(listed.body.id)).body.allowedOrigins).toEqual([
      "https://www.example.com",
    ]);
    const cleared = await api.agents.update(listed.body.id, { allowedOrigins: [] });
    expect(cleared.body.allowedOrigins).toEqual([]);
  });

  test.for([
    "https://shop.example.com/",
    "https://shop.example.com/page",
    "https://Shop.example.com",
    "shop.example.com",
    "ftp://shop.example.com",
    "https://shop.example.com:443",
    "*",
  ])("refuses %s, which is not an origin a browser sends (400)", async (origin, { api }) => {
    const created = await api.agents.create({ name: "Bad", allowedOrigins: [origin] });
    expect(created.status).toBe(400);
    expect(created.error.type).toBe("INVALID_REQUEST");
    expect(JSON.stringify(created.error.details)).toContain("allowedOrigins");
  });

  test("refuses more than 50 origins, on create and on update", async ({ api }) => {
    const origins = Array.from({ length: 51 }, (_, index) => `https://site${index}.example.com`);
    expect((await api.agents.create({ name: "Many", allowedOrigins: origins })).status).toBe(400);
    const agent = await api.agents.create({ name: "Fifty", allowedOrigins: origins.slice(0, 50) });
    expect(agent.status).toBe(201);
    const refused = await api.agents.update(agent.body.id, { allowedOrigins: origins });
    expect(refused.status).toBe(400);
    expect((await api.agents.get(agent.body.id)).body.allowedOrigins).toHaveLength(50);
  });
});
