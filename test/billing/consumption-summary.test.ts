import { describe, expect } from "vitest";
import { type ApiClient, unchecked } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { insertAgent, type SeedEvent, seedEvents } from "./billing-helpers.ts";

const test = appTest({ offline: true, orgName: "Summary", funded: false });

let agentIds: string[];
let events: SeedEvent[];

const DAY = 86_400_000;

/** A small seeded generator, so a failure can be replayed. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

// Midnights where a day, an ISO week (Mondays: 2024-12-30, 2025-01-06, 2025-03-03) and a month or
// a year change; events land a few milliseconds to a few hours either side of them.
const BOUNDARIES = [
  "2024-12-30T00:00:00Z",
  "2025-01-01T00:00:00Z",
  "2025-01-06T00:00:00Z",
  "2025-02-01T00:00:00Z",
  "2025-03-01T00:00:00Z",
  "2025-03-03T00:00:00Z",
].map((iso) => Date.parse(iso));
const WINDOW_START = Date.parse("2024-12-20T00:00:00Z");
const WINDOW_END = Date.parse("2025-03-10T00:00:00Z");

test.beforeAll(async ({ app, org }) => {
  const other = await app.createOrganization("Noise");
  agentIds = [
    await insertAgent(app, org.id, "Alpha"),
    await insertAgent(app, org.id, "Beta"),
    await insertAgent(app, org.id, "Gamma"),
  ];
  const random = randomSource(20250101);
  const offsets = [-3_600_000, -1, 0, 1, 59_999, 7_200_000];
  events = Array.from({ length: 700 }, (_, index) => {
    const occurredAt =
      index % 2 === 0
        ? random.pick(BOUNDARIES) + random.pick(offsets) + random.int(3) * 1000
        : WINDOW_START + random.int(WINDOW_END - WINDOW_START);
    return {
      organizationId: org.id,
      occurredAt: new Date(occurredAt),
      agentId: random.next() < 0.15 ? null : random.pick(agentIds),
      feature: random.pick(["chat", "agent_run", "transcription", "embeddings"]),
      provider: random.pick(["openai", "azure", "gemini", "bedrock"]),
      modelName: random.pick(["gpt-4o-mini", "gpt-4.1", "gemini-2.5-flash", "claude-4-sonnet"]),
      inputTokens: random.int(50_000),
      outputTokens: random.int(20_000),
      creditsChargedMicro: random.int(5_000_000) + 1,
    };
  });
  await seedEvents(app, events);
  // Another organization's events must never show up.
  await seedEvents(
    app,
    events.slice(0, 50).map((event) => ({ ...event, organizationId: other.id, agentId: null })),
  );
});

type Group = { credits: number; input: number; output: number; count: number };

function periodStart(instant: number, unit: "day" | "week" | "month"): string {
  const date = new Date(instant);
  const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  if (unit === "day") return new Date(midnight).toISOString();
  if (unit === "week") {
    const sinceMonday = (date.getUTCDay() + 6) % 7;
    return new Date(midnight - sinceMonday * DAY).toISOString();
  }
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)).toISOString();
}

function keyOf(event: SeedEvent, groupBy: string): string | null {
  const at = event.occurredAt.getTime();
  switch (groupBy) {
    case "agent":
      return event.agentId ?? null;
    case "feature":
      return event.feature!;
    case "provider":
      return event.provider!;
    case "model":
      return event.modelName!;
    default:
      return periodStart(at, groupBy as "day" | "week" | "month");
  }
}

function expectedGroups(
  groupBy: string,
  from: number,
  toExclusive: number,
  filter: (event: SeedEvent) => boolean = () => true,
) {
  const groups = new Map<string | null, Group>();
  for (const event of events) {
    const at = event.occurredAt.getTime();
    if (at < from || at >= toExclusive || !filter(event)) continue;
    const key = keyOf(event, groupBy);
    const group = groups.get(key) ?? { credits: 0, input: 0, output: 0, count: 0 };
    group.credits += event.creditsChargedMicro!;
    group.input += event.inputTokens!;
    group.output += event.outputTokens!;
    group.count += 1;
    groups.set(key, group);
  }
  return groups;
}

async function summary(api: ApiClient, query: Record<string, string>) {
  const response = await api.consumptionEvents.summary(unchecked(query));
  expect(response.status, response.text).toBe(200);
  return response.body;
}

type Row = {
  groupKey: string | null;
  agentName?: string | null;
  totalCreditsCharged: number;
  totalInputTokens: number;
  totalOutputTokens: number;
  eventCount: number;
};

function checkAgainst(data: Row[], expected: Map<string | null, Group>, groupBy: string) {
  expect(data).toHaveLength(expected.size);
  for (const row of data) {
    const group = expected.get(row.groupKey);
    expect(group, `group ${row.groupKey}`).toBeDefined();
    expect(row.totalCreditsCharged).toBe(group!.credits / 1_000_000);
    expect(row.totalInputTokens).toBe(group!.input);
    expect(row.totalOutputTokens).toBe(group!.output);
    expect(row.eventCount).toBe(group!.count);
    if (groupBy === "agent") expect(row).toHaveProperty("agentName");
    else expect(row).not.toHaveProperty("agentName");
  }
  const ordered = data.map((row) =>
    ["day", "week", "month"].includes(groupBy) ? row.groupKey! : row.totalCreditsCharged,
  );
  const sorted = [...ordered].sort((a, b) =>
    typeof a === "string" ? (a < (b as string) ? -1 : 1) : (b as number) - a,
  );
  expect(ordered).toEqual(sorted);
}

const GROUPS = ["agent", "feature", "provider", "model", "day", "week", "month"] as const;

describe("GET /api/consumption-events/summary against sums computed here", () => {
  // Partial days at both edges, whole days in between (those come from the daily totals).
  const startDate = "2024-12-29T13:45:10.123Z";
  const endDate = "2025-03-02T05:00:00.000Z";
  const from = Date.parse(startDate);
  const to = Date.parse(endDate) + 1;

  for (const groupBy of GROUPS) {
    test(`groupBy=${groupBy}`, async ({ api }) => {
      const body = await summary(api, { startDate, endDate, groupBy });
      expect(body).toMatchObject({ groupBy, startDate, endDate });
      checkAgainst(body.data, expectedGroups(groupBy, from, to), groupBy);
    });
  }

  test("temporal keys are UTC period starts; weeks start on Monday", async ({ api }) => {
    const weeks = await summary(api, { startDate, endDate, groupBy: "week" });
    for (const row of weeks.data as Row[]) {
      expect(row.groupKey).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
      expect(new Date(row.groupKey!).getUTCDay()).toBe(1);
    }
    const months = await summary(api, { startDate, endDate, groupBy: "month" });
    expect((months.data as Row[]).map((row) => row.groupKey)).toEqual([
      "2024-12-01T00:00:00.000Z",
      "2025-01-01T00:00:00.000Z",
      "2025-02-01T00:00:00.000Z",
      "2025-03-01T00:00:00.000Z",
    ]);
  });

  test("agent groups carry the agent's name; events without an agent form a null group", async ({
    api,
  }) => {
    const body = await summary(api, { startDate, endDate, groupBy: "agent" });
    const names = Object.fromEntries(
      (body.data as Row[]).map((row) => [row.groupKey ?? "none", row.agentName]),
    );
    expect(names).toEqual({
      [agentIds[0]!]: "Alpha",
      [agentIds[1]!]: "Beta",
      [agentIds[2]!]: "Gamma",
      none: null,
    });
  });

  test("date-only bounds cover whole UTC days", async ({ api }) => {
    const body = await summary(api, {
      startDate: "2024-12-31",
      endDate: "2025-01-06",
      groupBy: "day",
    });
    const expected = expectedGroups(
      "day",
      Date.parse("2024-12-31T00:00:00Z"),
      Date.parse("2025-01-07T00:00:00Z"),
    );
    checkAgainst(body.data, expected, "day");
  });

  test("a range inside one day reads events only", async ({ api }) => {
    const body = await summary(api, {
      startDate: "2025-01-05T23:00:00Z",
      endDate: "2025-01-05T23:59:59.999Z",
      groupBy: "feature",
    });
    const expected = expectedGroups(
      "feature",
      Date.parse("2025-01-05T23:00:00Z"),
      Date.parse("2025-01-06T00:00:00Z"),
    );
    checkAgainst(body.data, expected, "feature");
  });

  test("filters apply before aggregation", async ({ api }) => {
    const [agentId] = agentIds;
    for (const groupBy of ["model", "week"] as const) {
      const body = await summary(api, {
        startDate,
        endDate,
        groupBy,
        agentId: agentId!,
        feature: "chat",
        provider: "azure",
      });
      const expected = expectedGroups(
        groupBy,
        from,
        to,
        (event) =>
          event.agentId === agentId && event.feature === "chat" && event.provider === "azure",
      );
      expect(expected.size).toBeGreaterThan(0);
      checkAgainst(body.data, expected, groupBy);
    }
  });

  test("an empty range gives no groups", async ({ api }) => {
    const body = await summary(api, {
      startDate: "2020-01-01",
      endDate: "2020-02-01",
      groupBy: "day",
    });
    expect(body.data).toEqual([]);
  });
});

type StackedRow = Row & { stacks: Array<Omit<Row, "groupKey"> & { stackKey: string | null }> };

describe("GET /api/consumption-events/summary?stackBy: periods split by a second key", () => {
  const startDate = "2024-12-29T13:45:10.123Z";
  const endDate = "2025-03-02T05:00:00.000Z";
  const from = Date.parse(startDate);
  const to = Date.parse(endDate) + 1;

  for (const [groupBy, stackBy] of [
    ["day", "agent"],
    ["day", "model"],
    ["week", "feature"],
    ["month", "provider"],
  ] as const) {
    test(`groupBy=${groupBy}&stackBy=${stackBy}: each stack as computed here, adding up to its period`, async ({
      api,
    }) => {
      const body = await summary(api, { startDate, endDate, groupBy, stackBy });
      expect(body.stackBy).toBe(stackBy);
      // The periods are those of the summary without stackBy, with the same amounts.
      checkAgainst(body.data, expectedGroups(groupBy, from, to), groupBy);
      for (const row of body.data as StackedRow[]) {
        const inPeriod = (event: SeedEvent) => keyOf(event, groupBy) === row.groupKey;
        const expected = expectedGroups(stackBy, from, to, inPeriod);
        expect(row.stacks).toHaveLength(expected.size);
        let credits = 0;
        for (const stack of row.stacks) {
          const group = expected.get(stack.stackKey)!;
          expect(group, `stack ${stack.stackKey}`).toBeDefined();
          expect(stack.totalCreditsCharged).toBe(group.credits / 1_000_000);
          expect(stack.eventCount).toBe(group.count);
          expect(stack.totalInputTokens).toBe(group.input);
          credits += group.credits;
          if (stackBy === "agent") expect(stack).toHaveProperty("agentName");
          else expect(stack).not.toHaveProperty("agentName");
        }
        expect(credits / 1_000_000).toBe(row.totalCreditsCharged);
        const order = row.stacks.map((stack) => stack.totalCreditsCharged);
        expect(order).toEqual([...order].sort((a, b) => b - a));
      }
    });
  }

  test("stacks by agent carry the agent's name", async ({ api }) => {
    const body = await summary(api, { startDate, endDate, groupBy: "month", stackBy: "agent" });
    const names = new Set(
      (body.data as StackedRow[]).flatMap((row) => row.stacks.map((stack) => stack.agentName)),
    );
    expect(names).toEqual(new Set(["Alpha", "Beta", "Gamma", null]));
  });

  test("without stackBy, no row has stacks", async ({ api }) => {
    const body = await summary(api, { startDate, endDate, groupBy: "day" });
    expect(body).not.toHaveProperty("stackBy");
    for (const row of body.data as Row[]) expect(row).not.toHaveProperty("stacks");
  });
});

describe("GET /api/consumption-events/summary: bad input and auth", () => {
  const valid = { startDate: "2025-01-01", endDate: "2025-02-01", groupBy: "day" };
  const cases: Array<[string, Record<string, string>]> = [
    ["missing startDate", { endDate: valid.endDate, groupBy: "day" }],
    ["missing endDate", { startDate: valid.startDate, groupBy: "day" }],
    ["missing groupBy", { startDate: valid.startDate, endDate: valid.endDate }],
    ["invalid groupBy", { ...valid, groupBy: "year" }],
    ["endDate before startDate", { ...valid, startDate: "2025-02-02" }],
    ["not a date", { ...valid, startDate: "yesterday" }],
    ["invalid stackBy", { ...valid, stackBy: "day" }],
    ["stackBy with an entity groupBy", { ...valid, groupBy: "agent", stackBy: "model" }],
  ];
  for (const [name, query] of cases) {
    test(`400 INVALID_REQUEST for ${name}`, async ({ api }) => {
      const response = await api.consumptionEvents.summary(unchecked(query));
      expect(response.status).toBe(400);
      expect(response.error.type).toBe("INVALID_REQUEST");
    });
  }

  test("401 without a valid key", async ({ app }) => {
    for (const headers of [{}, { authorization: "Bearer adk_nope" }]) {
      const response = await app.client(headers).consumptionEvents.summary(unchecked(valid));
      expect(response.status).toBe(401);
    }
  });
});
