import { describe, expect } from "vitest";
import type { TestOrganization } from "../harness/app.ts";
import { type ApiClient, type Reply, type Untyped, unchecked } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { insertAgent, seedEvents } from "./billing-helpers.ts";

const test = appTest({ offline: true, orgName: "Ledger", funded: false });

let other: TestOrganization;
let agentId: string;
let ids: string[];

const at = (iso: string) => new Date(iso);

test.beforeAll(async ({ app, org }) => {
  other = await app.createOrganization("Elsewhere");
  agentId = await insertAgent(app, org.id, "Helper");
  const base = { organizationId: org.id };
  ids = await seedEvents(app, [
    { ...base, occurredAt: at("2025-01-01T00:00:00.000Z"), creditsChargedMicro: 500 },
    {
      ...base,
      occurredAt: at("2025-01-01T12:00:00.000Z"),
      agentId,
      creditsChargedMicro: 4_000,
      conversationId: "conv-1",
    },
    {
      ...base,
      occurredAt: at("2025-01-02T08:30:00.000Z"),
      agentId,
      feature: "transcription",
      provider: "groq",
      modelName: "whisper-large-v3",
      creditsChargedMicro: 2_500,
    },
    {
      ...base,
      occurredAt: at("2025-01-02T23:59:59.999Z"),
      provider: "azure",
      modelName: "gpt-4.1",
      creditsChargedMicro: 1_234_567,
      conversationId: "conv-1",
    },
    { ...base, occurredAt: at("2025-01-03T00:00:00.000Z"), creditsChargedMicro: 10 },
    { ...base, occurredAt: at("2025-01-04T10:00:00.000Z"), creditsChargedMicro: 9_999 },
    { ...base, occurredAt: at("2025-01-05T10:00:00.000Z"), creditsChargedMicro: 7 },
  ]);
  await seedEvents(app, [{ organizationId: other.id, occurredAt: at("2025-01-02T00:00:00Z") }]);
});

async function list(api: ApiClient, query: Record<string, string> = {}): Promise<Reply<Untyped>> {
  return api.consumptionEvents.list(unchecked(query));
}

async function idsOf(api: ApiClient, query: Record<string, string>) {
  const response = await list(api, query);
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((event: { id: string }) => event.id);
}

describe("GET /api/consumption-events", () => {
  test("lists newest first with 50 per page by default, with the spec's fields", async ({
    org,
    api,
  }) => {
    const response = await list(api);
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.pagination).toEqual({ page: 1, limit: 50, total: 7, totalPages: 1 });
    expect(body.data.map((event: { id: string }) => event.id)).toEqual([...ids].reverse());
    expect(body.data.find((event: { id: string }) => event.id === ids[3])).toEqual({
      id: ids[3],
      organizationId: org.id,
      agentId: null,
      feature: "chat",
      provider: "azure",
      modelName: "gpt-4.1",
      inputTokens: 10,
      outputTokens: 5,
      units: null,
      creditsCharged: 1.234567,
      creditsChargedRaw: 1.234567,
      billingCoefficient: 1,
      occurredAt: "2025-01-02T23:59:59.999Z",
      metadata: {},
      conversationId: "conv-1",
      messageId: null,
      agent: null,
    });
    expect(body.data.find((event: { id: string }) => event.id === ids[1]).agent).toEqual({
      id: agentId,
      name: "Helper",
    });
  });

  test("orders by each of the four orderBy values", async ({ api }) => {
    expect(await idsOf(api, { orderBy: "occurredAt_asc" })).toEqual(ids);
    expect(await idsOf(api, { orderBy: "occurredAt_desc" })).toEqual([...ids].reverse());
    const byCredits = [ids[6], ids[4], ids[0], ids[2], ids[1], ids[5], ids[3]];
    expect(await idsOf(api, { orderBy: "creditsCharged_asc" })).toEqual(byCredits);
    expect(await idsOf(api, { orderBy: "creditsCharged_desc" })).toEqual([...byCredits].reverse());
  });

  test("paginates with page and limit", async ({ api }) => {
    const pages = [];
    for (const page of [1, 2, 3]) {
      const body = (await list(api, { page: String(page), limit: "3", orderBy: "occurredAt_asc" }))
        .body;
      expect(body.pagination).toEqual({ page, limit: 3, total: 7, totalPages: 3 });
      pages.push(...body.data.map((event: { id: string }) => event.id));
    }
    expect(pages).toEqual(ids);
    const beyond = (await list(api, { page: "9", limit: "3" })).body;
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination.total).toBe(7);
    expect((await list(api, { limit: "100" })).body.pagination.limit).toBe(100);
  });

  test("filters by agentId, feature, provider, model and conversationId", async ({ api }) => {
    expect(await idsOf(api, { agentId, orderBy: "occurredAt_asc" })).toEqual([ids[1], ids[2]]);
    expect(await idsOf(api, { feature: "transcription" })).toEqual([ids[2]]);
    expect(await idsOf(api, { provider: "azure" })).toEqual([ids[3]]);
    expect(await idsOf(api, { model: "whisper-large-v3" })).toEqual([ids[2]]);
    expect(await idsOf(api, { conversationId: "conv-1", orderBy: "occurredAt_asc" })).toEqual([
      ids[1],
      ids[3],
    ]);
    expect(await idsOf(api, { agentId, feature: "chat" })).toEqual([ids[1]]);
    expect(await idsOf(api, { agentId: "unknown" })).toEqual([]);
  });

  test("startDate and endDate are inclusive; a date-only endDate covers its whole UTC day", async ({
    api,
  }) => {
    const asc = { orderBy: "occurredAt_asc" };
    expect(
      await idsOf(api, {
        ...asc,
        startDate: "2025-01-01T12:00:00.000Z",
        endDate: "2025-01-02T23:59:59.999Z",
      }),
    ).toEqual([ids[1], ids[2], ids[3]]);
    expect(await idsOf(api, { ...asc, startDate: "2025-01-02", endDate: "2025-01-02" })).toEqual([
      ids[2],
      ids[3],
    ]);
    expect(await idsOf(api, { ...asc, startDate: "2025-01-04" })).toEqual([ids[5], ids[6]]);
    expect(await idsOf(api, { ...asc, endDate: "2025-01-01T00:00:00Z" })).toEqual([ids[0]]);
    expect(await idsOf(api, { ...asc, startDate: "2025-01-03T01:00:00+01:00" })).toEqual([
      ids[4],
      ids[5],
      ids[6],
    ]);
  });
});

describe("GET /api/consumption-events: bad input and security", () => {
  const cases: Array<[string, Record<string, string>]> = [
    ["endDate before startDate", { startDate: "2025-01-02", endDate: "2025-01-01" }],
    ["page 0", { page: "0" }],
    ["page not a number", { page: "two" }],
    ["limit 0", { limit: "0" }],
    ["limit 101", { limit: "101" }],
    ["fractional limit", { limit: "2.5" }],
    ["unknown orderBy", { orderBy: "credits_desc" }],
    ["bad date", { startDate: "2025-13-45" }],
  ];
  for (const [name, query] of cases) {
    test(`400 INVALID_REQUEST for ${name}`, async ({ api }) => {
      const response = await list(api, query);
      expect(response.status).toBe(400);
      expect(response.error.type).toBe("INVALID_REQUEST");
    });
  }

  test("401 without a valid key", async ({ app }) => {
    for (const headers of [{}, { authorization: "Bearer adk_nope" }]) {
      const response = await app.client(headers).consumptionEvents.list();
      expect(response.status).toBe(401);
      expect(response.error.type).toBe("UNAUTHORIZED");
    }
  });

  test("shows only the caller's organization", async ({ app }) => {
    const body = (await list(app.client(other.auth), {})).body;
    expect(body.pagination.total).toBe(1);
    expect(body.data[0].organizationId).toBe(other.id);
    expect(body.data.map((event: { id: string }) => event.id)).not.toContain(ids[0]);
  });
});
