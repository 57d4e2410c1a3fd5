import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { conversations, messages } from "../../src/db/schema/index.ts";
import { createAgent } from "../harness/agents.ts";
import type { TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const HEADER = "conversation_id,message_from,message_text,message_created_at";

type Seed = {
  id: string;
  status?: "UNRESOLVED" | "RESOLVED" | "HUMAN_REQUESTED";
  channel?: string;
  agent?: string;
  messages: Array<[from: "human" | "agent", text: string, at: string, draft?: boolean]>;
};

const test = appTest({
  offline: true,
  orgName: "Exporter",
  funded: false,
  agent: { name: "Exported" },
})
  .extend(
    "seed",
    { scope: "file" },
    ({ app, org, agent: exported }) =>
      async (conversation: Seed) => {
        const agent = conversation.agent ?? exported.id;
        await app.database.db.insert(conversations).values({
          id: conversation.id,
          externalId: conversation.id,
          organizationId: org.id,
          agentId: agent,
          visitorId: `visitor-${conversation.id}`,
          channel: conversation.channel ?? "website",
          status: conversation.status ?? "UNRESOLVED",
        });
        await app.database.db.insert(messages).values(
          conversation.messages.map(([from, text, at, draft], index) => ({
            id: `${conversation.id}-m${index}`,
            organizationId: org.id,
            conversationId: conversation.id,
            agentId: agent,
            from,
            text,
            isDraft: draft ?? false,
            createdAt: new Date(at),
          })),
        );
      },
  )
  .extend(
    "exportCsv",
    { scope: "file" },
    ({ app, org, agent }) =>
      (query = "", who: TestOrganization = org, id = agent.id) =>
        app.api.inject({
          url: `/api/agents/${id}/conversations-export${query}`,
          headers: who.auth,
        }),
  );

let stranger: TestOrganization;
let otherAgentId: string;
let emptyAgentId: string;

test.beforeAll(async ({ app, org, seed }) => {
  stranger = await app.createOrganization("Stranger");
  otherAgentId = (await createAgent(app, org, { name: "Other" })).id;
  emptyAgentId = (await createAgent(app, org, { name: "Silent" })).id;
  await seed({
    id: "c-web",
    messages: [
      ["human", "Hello, my order #12 is late", "2024-03-01T10:00:00.000Z"],
      ["agent", 'It ships "today", sorry!', "2024-03-01T10:00:01.000Z"],
      ["agent", "draft never exported", "2024-03-01T10:00:02.000Z", true],
    ],
  });
  await seed({
    id: "c-wa",
    channel: "whatsapp",
    status: "RESOLVED",
    messages: [
      ["human", '=HYPERLINK("http://evil")', "2024-03-05T09:00:00.000Z"],
      ["agent", "+1 for that", "2024-03-05T09:00:01.000Z"],
      ["human", "-2 items\nand a second line", "2024-03-05T09:00:02.000Z"],
      ["agent", "@admin\tplease check", "2024-03-05T09:00:03.000Z"],
      ["human", "\tTabbed", "2024-03-05T23:59:59.000Z"],
      ["agent", "\rCarriage 100% sure_", "2024-03-06T00:00:00.000Z"],
    ],
  });
  await seed({
    id: "c-human",
    status: "HUMAN_REQUESTED",
    channel: "telegram",
    messages: [["human", "I want a PERSON", "2024-03-10T12:00:00.000Z"]],
  });
  await seed({
    id: "c-other",
    agent: otherAgentId,
    messages: [["human", "other agent", "2024-03-02T00:00:00.000Z"]],
  });
});

function rows(body: string): string[][] {
  return parse(body, { relax_column_count: false }) as string[][];
}

describe("conversations-export", () => {
  test("streams an RFC 4180 CSV attachment of the agent's sent messages, oldest first", async ({
    agent,
    exportCsv,
  }) => {
    const response = await exportCsv();
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(
      new RegExp(`^attachment; filename="conversations-${agent.id}-\\d{8}T\\d{6}Z\\.csv"$`),
    );
    expect(response.body.startsWith(`${HEADER}\r\n`)).toBe(true);
    const [header, ...data] = rows(response.body);
    expect(header).toEqual(HEADER.split(","));
    expect(data).toEqual([
      ["c-web", "human", "Hello, my order #12 is late", "2024-03-01T10:00:00.000Z"],
      ["c-web", "agent", 'It ships "today", sorry!', "2024-03-01T10:00:01.000Z"],
      ["c-wa", "human", '\'=HYPERLINK("http://evil")', "2024-03-05T09:00:00.000Z"],
      ["c-wa", "agent", "'+1 for that", "2024-03-05T09:00:01.000Z"],
      ["c-wa", "human", "'-2 items\nand a second line", "2024-03-05T09:00:02.000Z"],
      ["c-wa", "agent", "'@admin\tplease check", "2024-03-05T09:00:03.000Z"],
      ["c-wa", "human", "'\tTabbed", "2024-03-05T23:59:59.000Z"],
      ["c-wa", "agent", "'\rCarriage 100% sure_", "2024-03-06T00:00:00.000Z"],
      ["c-human", "human", "I want a PERSON", "2024-03-10T12:00:00.000Z"],
    ]);
    // Quotes are doubled inside quoted cells, and records end with CRLF.
    expect(response.body).toContain(
      '"c-web","agent","It ships ""today"", sorry!","2024-03-01T10:00:01.000Z"\r\n',
    );
  });

  test("orders newest first with orderBy=desc", async ({ exportCsv }) => {
    const data = rows((await exportCsv("?orderBy=desc")).body).slice(1);
    expect(data.map((row) => row[2]).slice(0, 2)).toEqual([
      "I want a PERSON",
      "'\rCarriage 100% sure_",
    ]);
    expect(data).toHaveLength(9);
  });

  test.for([
    ["include=human", 5],
    ["include=agent", 4],
    ["status=RESOLVED", 6],
    ["status=HUMAN_REQUESTED", 1],
    ["status=UNRESOLVED", 2],
    ["channel=whatsapp", 6],
    ["channel=website", 2],
    ["channel=slack", 0],
    ["conversationId=c-web,c-human", 3],
    ["conversationId=c-other", 0],
    ["from=2024-03-05&to=2024-03-05", 5],
    ["from=2024-03-05T09:00:01Z&to=2024-03-05T09:00:02Z", 2],
    ["to=2024-03-01T10:00:00%2B00:00", 1],
    ["search=ORDER", 1],
    ["search=100%25", 1],
    ["search=sure_", 1],
    ["search=%25", 1],
    ["limit=3", 3],
    ["preview=true", 9],
    ["include=agent&status=RESOLVED&orderBy=desc&limit=2", 2],
  ] as const)("filters with %s", async ([query, count], { exportCsv }) => {
    const response = await exportCsv(`?${query}`);
    expect(response.statusCode).toBe(200);
    expect(rows(response.body).slice(1)).toHaveLength(count);
  });

  test("is the header row alone when nothing matches", async ({ org, exportCsv }) => {
    for (const response of [
      await exportCsv("", org, emptyAgentId),
      await exportCsv("?search=zzz-nothing"),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(`${HEADER}\r\n`);
    }
  });

  test("exports messages written through the API", async ({ app, org, exportCsv }) => {
    const appended = await app.api.inject({
      method: "POST",
      url: `/api/agents/${emptyAgentId}/query-agent`,
      headers: org.auth,
      payload: { query: "via HTTP", channel: "dashboard" },
    });
    const data = rows((await exportCsv("?channel=dashboard", org, emptyAgentId)).body).slice(1);
    expect(data).toEqual([
      [appended.json().conversationId, "agent", "via HTTP", expect.any(String)],
    ]);
    expect(Date.parse(data[0]![3]!)).not.toBeNaN();
  });
});

describe("large exports", () => {
  test.beforeAll(async ({ app, org }) => {
    await app.database.db.insert(conversations).values({
      id: "c-bulk",
      externalId: "c-bulk",
      organizationId: org.id,
      agentId: otherAgentId,
      visitorId: "bulk",
      channel: "slack",
    });
    // 2,500 messages, many sharing a timestamp, so paging must tie-break on the id.
    await app.database.db.execute(sql`
      insert into messages (id, organization_id, conversation_id, agent_id, "from", text, created_at)
      select 'bulk-' || lpad(n::text, 5, '0'), ${org.id}, 'c-bulk', ${otherAgentId},
             case when n % 2 = 0 then 'human' else 'agent' end, 'message ' || n,
             timestamptz '2024-04-01T00:00:00Z' + ((n / 7) || ' milliseconds')::interval
      from generate_series(1, 2500) as n`);
  });

  test("pages through every message once, in order, in both directions", async ({
    org,
    exportCsv,
  }) => {
    const ascending = rows(
      (await exportCsv("?channel=slack&limit=100000", org, otherAgentId)).body,
    ).slice(1);
    expect(ascending).toHaveLength(2500);
    expect(new Set(ascending.map((row) => row[2])).size).toBe(2500);
    const times = ascending.map((row) => Date.parse(row[3]!));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const descending = rows(
      (await exportCsv("?channel=slack&limit=100000&orderBy=desc", org, otherAgentId)).body,
    ).slice(1);
    expect(descending.map((row) => row[2])).toEqual(ascending.map((row) => row[2]).reverse());
  });

  test("stops at the limit across pages, defaults to 5000, and preview caps at 100", async ({
    org,
    exportCsv,
  }) => {
    const limited = rows(
      (await exportCsv("?channel=slack&limit=1500", org, otherAgentId)).body,
    ).slice(1);
    expect(limited).toHaveLength(1500);
    expect(limited.at(-1)?.[2]).toBe("message 1500");
    const preview = rows(
      (await exportCsv("?channel=slack&limit=2000&preview=true", org, otherAgentId)).body,
    ).slice(1);
    expect(preview).toHaveLength(100);
    const byDefault = rows((await exportCsv("", org, otherAgentId)).body).slice(1);
    expect(byDefault).toHaveLength(2501);
  });
});

describe("conversations-export refusals", () => {
  test.for([
    ["from=yesterday", "querystring.from"],
    ["to=2024-02-30", "querystring.to"],
    ["from=2024-03-05T25:00:00Z", "querystring.from"],
    ["include=bots", "querystring.include"],
    ["status=OPEN", "querystring.status"],
    ["status=resolved", "querystring.status"],
    ["channel=api", "querystring.channel"],
    ["channel=fax", "querystring.channel"],
    ["limit=0", "querystring.limit"],
    ["limit=100001", "querystring.limit"],
    ["limit=12.5", "querystring.limit"],
    ["limit=lots", "querystring.limit"],
    ["preview=maybe", "querystring.preview"],
    ["orderBy=newest", "querystring.orderBy"],
    [`search=${"a".repeat(501)}`, "querystring.search"],
    ["conversationId=,,", "querystring.conversationId"],
  ] as const)("%s gives 400", async ([query, path], { exportCsv }) => {
    const response = await exportCsv(`?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toContain("application/json");
    const body = response.json();
    expect(body.type).toBe("INVALID_REQUEST");
    expect(body.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  test("refuses from after to", async ({ exportCsv }) => {
    for (const query of [
      "?from=2024-03-06&to=2024-03-05",
      "?from=2024-03-05T10:00:00Z&to=2024-03-05T09:00:00Z",
    ]) {
      const response = await exportCsv(query);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe("from must not be after to");
    }
  });

  test("accepts a search of exactly 500 characters", async ({ exportCsv }) => {
    expect((await exportCsv(`?search=${"a".repeat(500)}`)).statusCode).toBe(200);
  });

  test("answers 401 without a key and 404 for an absent agent or another organization's", async ({
    app,
    org,
    agent,
    exportCsv,
  }) => {
    const anonymous = await app.api.inject({ url: `/api/agents/${agent.id}/conversations-export` });
    expect(anonymous.statusCode).toBe(401);
    expect((await exportCsv("", org, "no-such-agent")).statusCode).toBe(404);
    const foreign = await exportCsv("", stranger);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain("order #12");
  });

  test("writes times as toISOString does: UTC, milliseconds, the microseconds cut", async ({
    app,
    org,
    seed,
    exportCsv,
  }) => {
    const precise = (await createAgent(app, org, { name: "Precise" })).id;
    await seed({
      id: "c-precise",
      agent: precise,
      messages: [["human", "¿Dónde está mi pedido? 📦", "2024-05-01T10:00:00.000Z"]],
    });
    await app.database.db.execute(
      sql`update messages set created_at = '2024-05-01 12:00:00.999987+02' where id = 'c-precise-m0'`,
    );
    const [, ...data] = rows((await exportCsv("", org, precise)).body);
    expect(data).toEqual([
      ["c-precise", "human", "¿Dónde está mi pedido? 📦", "2024-05-01T10:00:00.999Z"],
    ]);
  });
});
