import { describe, expect } from "vitest";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { ApiClient, Query } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";

// GET /api/conversations as the operator console's inbox reads it: filters, lastMessage, the
// lastActivity order and their cursors (docs/agents.md, "Conversations").

const test = appTest({ orgName: "Inbox" });

type Item = {
  id: string;
  agentId: string;
  status: string;
  aiEnabled: boolean;
  channel: string;
  updatedAt: string;
  lastMessage: { from: string; text: string; createdAt: string } | null;
};
type Page = { data: Item[]; nextCursor: string | null };

const LONG_TEXT = `${"Lorem ipsum dolor sit amet. ".repeat(12)}THE END`;

/** The conversations of the fixture, by role. */
const c = {} as Record<
  "parcel" | "refund" | "handled" | "resolved" | "draftOnly" | "long" | "otherAgent",
  string
>;
let operator: SignedIn;
let otherAgentId: string;

const ids = (page: Page) => page.data.map((item) => item.id);

async function list(api: ApiClient, query: Query = {}): Promise<Page> {
  const response = await api.conversations.list({ limit: 100, ...query });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Every page of a list, `limit` at a time, following nextCursor. */
async function allPages(api: ApiClient, query: Query, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await list(api, { ...query, limit, ...(cursor ? { cursor } : {}) });
    expect(page.data.length).toBeLessThanOrEqual(limit);
    seen.push(...ids(page));
    cursor = page.nextCursor;
  } while (cursor);
  return seen;
}

test.beforeAll(async ({ app, org, api, agent }) => {
  operator = await memberOf(app, org, "member");
  otherAgentId = (await createAgent(app, org, { name: "Sales" })).id;
  const append = async (agentId: string, body: Record<string, unknown>) => {
    const response = await api.agents.queryAgent(agentId, body as never);
    expect(response.status, response.text).toBe(200);
    return response.body.conversationId;
  };
  c.parcel = await append(agent.id, {
    query: "Where is my PARCEL?",
    contact: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
  });
  c.refund = await append(agent.id, {
    query: "A refund of 50% was promised",
    channel: "whatsapp",
    contact: { phoneNumber: "+44 20 7946 0000" },
  });
  c.handled = await append(otherAgentId, { query: "Hello from sales", channel: "telegram" });
  c.resolved = await append(agent.id, { query: "Thanks, all good", channel: "website" });
  c.draftOnly = await append(agent.id, { query: "secret draft words", isDraft: true });
  c.long = await append(agent.id, { query: LONG_TEXT, channel: "website" });

  const taken = await api.conversations.update(c.handled, {
    aiEnabled: false,
    assigneeId: operator.userId,
  });
  expect(taken.status, taken.text).toBe(200);
  const resolved = await api.conversations.update(c.resolved, { status: "RESOLVED" });
  expect(resolved.status, resolved.text).toBe(200);
  // The customer writes while a person handles it: stored, not answered.
  const customer = await api.agents.query(otherAgentId, {
    query: "Are you there?",
    conversationId: c.handled,
  });
  expect(customer.status, customer.text).toBe(200);
});

describe("filters", () => {
  test("status, aiEnabled, channel and assigneeId each keep only what they name", async ({
    api,
  }) => {
    expect(ids(await list(api, { status: "HUMAN_REQUESTED" }))).toEqual([c.handled]);
    expect(ids(await list(api, { status: "RESOLVED" }))).toEqual([c.resolved]);
    expect(ids(await list(api, { status: "UNRESOLVED" })).sort()).toEqual(
      [c.parcel, c.refund, c.draftOnly, c.long].sort(),
    );
    expect(ids(await list(api, { aiEnabled: "false" }))).toEqual([c.handled]);
    expect(ids(await list(api, { aiEnabled: "true" }))).not.toContain(c.handled);
    expect((await list(api, { aiEnabled: "true" })).data).toHaveLength(5);
    expect(ids(await list(api, { channel: "whatsapp" }))).toEqual([c.refund]);
    expect(ids(await list(api, { channel: "website" })).sort()).toEqual(
      [c.resolved, c.long].sort(),
    );
    expect(ids(await list(api, { channel: "slack" }))).toEqual([]);
    expect(ids(await list(api, { assigneeId: operator.userId }))).toEqual([c.handled]);
    const unassigned = ids(await list(api, { assigneeId: "none" }));
    expect(unassigned).toHaveLength(5);
    expect(unassigned).not.toContain(c.handled);
    expect(ids(await list(api, { assigneeId: "no-such-user" }))).toEqual([]);
  });

  test("q finds text in messages and in the contact's name, e-mail and phone, any case", async ({
    api,
  }) => {
    expect(ids(await list(api, { q: "parcel" }))).toEqual([c.parcel]);
    expect(ids(await list(api, { q: "ada love" }))).toEqual([c.parcel]);
    expect(ids(await list(api, { q: "lovelace" }))).toEqual([c.parcel]);
    expect(ids(await list(api, { q: "ADA@EXAMPLE.COM" }))).toEqual([c.parcel]);
    expect(ids(await list(api, { q: "7946" }))).toEqual([c.refund]);
    // The operator's customer message counts like any other.
    expect(ids(await list(api, { q: "are you THERE" }))).toEqual([c.handled]);
    // Drafts are not what was said.
    expect(ids(await list(api, { q: "secret draft" }))).toEqual([]);
  });

  test("q takes % and _ as plain characters", async ({ api }) => {
    expect(ids(await list(api, { q: "50%" }))).toEqual([c.refund]);
    expect(ids(await list(api, { q: "%" }))).toEqual([c.refund]);
    expect(ids(await list(api, { q: "_" }))).toEqual([]);
    expect(ids(await list(api, { q: "5_%" }))).toEqual([]);
  });

  test("an empty or blank q filters nothing; 500 characters are allowed", async ({ api }) => {
    expect((await list(api, { q: "" })).data).toHaveLength(6);
    expect((await list(api, { q: "   " })).data).toHaveLength(6);
    expect((await list(api, { q: "x".repeat(500) })).data).toEqual([]);
  });

  test("filters combine with each other and with agentId", async ({ api, agent }) => {
    expect(
      ids(await list(api, { agentId: agent.id, aiEnabled: "true", channel: "api", q: "PARCEL" })),
    ).toEqual([c.parcel]);
    expect(ids(await list(api, { agentId: agent.id, status: "HUMAN_REQUESTED" }))).toEqual([]);
    expect(ids(await list(api, { agentId: otherAgentId, status: "HUMAN_REQUESTED" }))).toEqual([
      c.handled,
    ]);
    expect(ids(await list(api, { channel: "website", status: "RESOLVED" }))).toEqual([c.resolved]);
    expect(ids(await list(api, { channel: "website", q: "parcel" }))).toEqual([]);
    expect(ids(await list(api, { assigneeId: "none", aiEnabled: "false" }))).toEqual([]);
  });
});

describe("lastMessage", () => {
  test("is the last sent message, its text cut at 280 characters; null without one", async ({
    api,
  }) => {
    const byId = new Map((await list(api)).data.map((item) => [item.id, item]));
    const parcel = (await api.conversations.get(c.parcel)).body;
    expect(byId.get(c.parcel)?.lastMessage).toEqual({
      from: "agent",
      text: "Where is my PARCEL?",
      createdAt: parcel.messages[0].createdAt,
    });
    expect(byId.get(c.handled)?.lastMessage).toMatchObject({
      from: "human",
      text: "Are you there?",
    });
    expect(byId.get(c.long)?.lastMessage?.text).toBe(LONG_TEXT.slice(0, 280));
    expect(LONG_TEXT.length).toBeGreaterThan(280);
    expect(byId.get(c.draftOnly)?.lastMessage).toBeNull();
  });

  test("a draft added later is not the lastMessage", async ({ api, agent }) => {
    const draft = await api.agents.queryAgent(agent.id, {
      query: "another draft",
      conversationId: c.long,
      isDraft: true,
    });
    expect(draft.status).toBe(200);
    const item = (await list(api, { q: "THE END" })).data[0];
    expect(item).toMatchObject({ id: c.long, lastMessage: { text: LONG_TEXT.slice(0, 280) } });
  });

  test("GET /api/conversations/{id} keeps its messages and has no lastMessage", async ({ api }) => {
    const one = await api.conversations.get(c.draftOnly);
    expect(one.status).toBe(200);
    expect(one.body.messages).toHaveLength(1);
    expect(one.body).not.toHaveProperty("lastMessage");
  });
});

describe("sort=lastActivity", () => {
  test("puts the conversation with the latest message first, an operator's reply included", async ({
    api,
  }) => {
    const top = async () => (await list(api, { sort: "lastActivity" })).data[0]!.id;
    const first = await api.conversations.reply(c.parcel, { text: "It left our depot today." });
    expect(first.status, first.text).toBe(201);
    expect(await top()).toBe(c.parcel);

    const other = await api.agents.queryAgent(otherAgentId, {
      query: "Another question",
      conversationId: c.handled,
    });
    expect(other.status).toBe(200);
    expect(await top()).toBe(c.handled);

    // The AI is already off in this conversation: the second reply changes no state, only
    // the message moves it.
    const before = (await list(api, { q: "parcel" })).data[0]!.updatedAt;
    const second = await api.conversations.reply(c.parcel, { text: "It arrives tomorrow." });
    expect(second.status, second.text).toBe(201);
    const page = await list(api, { sort: "lastActivity" });
    expect(page.data[0]).toMatchObject({
      id: c.parcel,
      lastMessage: { from: "agent", text: "It arrives tomorrow." },
    });
    expect(page.data[0]!.updatedAt > before).toBe(true);
    const times = page.data.map((item) => item.updatedAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  test("a change of state moves a conversation up too", async ({ api }) => {
    const updated = await api.conversations.update(c.refund, { assigneeId: operator.userId });
    expect(updated.status).toBe(200);
    expect((await list(api, { sort: "lastActivity" })).data[0]!.id).toBe(c.refund);
    expect((await api.conversations.update(c.refund, { assigneeId: null })).status).toBe(200);
  });
});

describe("paging", () => {
  test("cursors walk every page of a filtered list in either order, nothing skipped or repeated", async ({
    api,
    agent,
  }) => {
    for (let index = 0; index < 7; index += 1) {
      const response = await api.agents.queryAgent(agent.id, {
        query: `paging ${index}`,
        channel: "form",
      });
      expect(response.status).toBe(200);
    }
    for (const sort of ["createdAt", "lastActivity"]) {
      const whole = ids(await list(api, { channel: "form", q: "paging", sort }));
      expect(whole).toHaveLength(7);
      expect(await allPages(api, { channel: "form", q: "paging", sort }, 2)).toEqual(whole);
      expect(await allPages(api, { channel: "form", sort }, 3)).toEqual(whole);
    }
    expect(await allPages(api, { sort: "lastActivity" }, 4)).toEqual(
      ids(await list(api, { sort: "lastActivity" })),
    );
  });

  test("a cursor of a leap day or with a fraction and an offset is a place like any other", async ({
    api,
  }) => {
    for (const time of ["2024-02-29 23:59:59.999999+00", "2030-01-01 00:00:00+05:30"]) {
      const cursor = Buffer.from(`createdAt|${time}|zzz`).toString("base64url");
      const page = await api.conversations.list({ cursor });
      expect(page.status, page.text).toBe(200);
    }
  });

  test("a cursor continues from its place with other filters, and needs its own sort", async ({
    api,
  }) => {
    const first = await list(api, { sort: "lastActivity", limit: 2 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const all = (await list(api, { sort: "lastActivity" })).data;
    const rest = await list(api, {
      sort: "lastActivity",
      cursor: first.nextCursor!,
      aiEnabled: "false",
    });
    const expected = all.slice(2).filter((item) => !item.aiEnabled);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(rest)).toEqual(expected.map((item) => item.id));

    const wrongSort = await api.conversations.list({ cursor: first.nextCursor! });
    expect(wrongSort.status).toBe(400);
    expect(wrongSort.error).toMatchObject({
      type: "INVALID_REQUEST",
      details: [{ path: "querystring.cursor" }],
    });
  });
});

describe("scope", () => {
  test("another organization's conversations never appear, whatever the filters", async ({
    app,
    api,
  }) => {
    const stranger = await createFundedOrganization(app, "Stranger");
    const theirAgent = await createAgent(app, stranger);
    const theirs = app.client(stranger.auth);
    const appended = await theirs.agents.queryAgent(theirAgent.id, {
      query: "Where is my parcel? (theirs)",
      contact: { firstName: "Ada", email: "ada@example.com" },
    });
    expect(appended.status).toBe(200);
    const theirId = appended.body.conversationId;
    for (const query of [{}, { q: "parcel" }, { q: "ada" }, { sort: "lastActivity" }] as Query[]) {
      expect(ids(await list(api, query))).not.toContain(theirId);
      expect(ids(await list(theirs, query))).toEqual([theirId]);
    }
    expect(ids(await list(api, { agentId: theirAgent.id }))).toEqual([]);
  });

  test("a key restricted to some agents lists only their conversations", async ({
    app,
    org,
    api,
    agent,
  }) => {
    const owner = await memberOf(app, org, "owner");
    const created = await app.api.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: owner.headers,
      payload: { name: "sales only", agentIds: [otherAgentId] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const limited = api.as({ authorization: `Bearer ${created.json().key}` });
    const seen = (await list(limited, { sort: "lastActivity" })).data;
    expect(seen.map((item) => item.agentId)).toEqual([otherAgentId]);
    expect(ids(await list(limited, { q: "parcel" }))).toEqual([]);
    expect(ids(await list(limited, { status: "HUMAN_REQUESTED" }))).toEqual([c.handled]);
    const refused = await limited.conversations.list({ agentId: agent.id });
    expect(refused.status).toBe(403);
    expect(refused.error.type).toBe("FORBIDDEN");
  });
});

describe("bad input", () => {
  const cases: Array<[string, Query, string]> = [
    ["an unknown status", { status: "OPEN" }, "status"],
    ["a lower-case status", { status: "resolved" }, "status"],
    ["aiEnabled=maybe", { aiEnabled: "maybe" }, "aiEnabled"],
    ["aiEnabled=1", { aiEnabled: "1" }, "aiEnabled"],
    ["an unknown channel", { channel: "fax" }, "channel"],
    ["an empty assigneeId", { assigneeId: "" }, "assigneeId"],
    ["a q of 501 characters", { q: "x".repeat(501) }, "q"],
    ["an unknown sort", { sort: "updatedAt" }, "sort"],
    ["limit 0", { limit: 0 }, "limit"],
    ["limit 101", { limit: 101 }, "limit"],
    ["a garbage cursor", { cursor: "bm90LWEtY3Vyc29y" }, "cursor"],
    ["a cursor that is no base64", { cursor: "%%%" }, "cursor"],
    [
      "a cursor of an unknown sort",
      { cursor: Buffer.from("name|2024-05-01 12:00:00+00|x").toString("base64url") },
      "cursor",
    ],
    ...[
      "yesterday",
      "2024-02-30 12:00:00+00",
      "2023-02-29 12:00:00+00",
      "2024-01-01 24:00:00+00",
      "2024-01-01 12:00:00+99",
      "0000-01-01 12:00:00+00",
    ].map((time): [string, Query, string] => [
      `a cursor at ${time}`,
      { cursor: Buffer.from(`createdAt|${time}|x`).toString("base64url") },
      "cursor",
    ]),
  ];
  test.for(cases)(
    "%s is 400 INVALID_REQUEST naming the parameter",
    async ([, query, name], { api }) => {
      const response = await api.conversations.list(query);
      expect(response.status, response.text).toBe(400);
      expect(Object.keys(response.error).sort()).toEqual(["details", "error", "requestId", "type"]);
      expect(response.error.type).toBe("INVALID_REQUEST");
      expect(response.error.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: `querystring.${name}` })]),
      );
    },
  );
});
