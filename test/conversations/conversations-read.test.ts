import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { unchecked } from "../harness/client.ts";

let app: TestApp;
let org: TestOrganization;
let agentId: string;
let otherAgentId: string;
const created: string[] = [];

const append = (id: string, body: Record<string, unknown>) =>
  app.client(org.auth).agents.queryAgent(id, unchecked(body));

beforeAll(async () => {
  app = await startTestApp();
  org = await app.createOrganization("Reader");
  agentId = (await createAgent(app, org)).id;
  otherAgentId = (await createAgent(app, org, { name: "Other" })).id;
  for (let index = 0; index < 5; index += 1) {
    created.push((await append(agentId, { query: `conversation ${index}` })).body.conversationId);
  }
  await append(otherAgentId, { query: "elsewhere" });
});
afterAll(() => app.close());

const list = (query: string) =>
  app.client(org.auth).request({ method: "GET", url: `/api/conversations${query}` });

describe("GET /api/conversations", () => {
  test("lists an agent's conversations newest first, page by page", async () => {
    const first = await list(`?agentId=${agentId}&limit=2`);
    expect(first.status).toBe(200);
    const page1 = first.body;
    expect(page1.data.map((c: { id: string }) => c.id)).toEqual([created[4], created[3]]);
    expect(page1.data[0]).toMatchObject({
      agentId,
      channel: "api",
      status: "UNRESOLVED",
      contact: null,
    });
    const page2 = (await list(`?agentId=${agentId}&limit=2&cursor=${page1.nextCursor}`)).body;
    expect(page2.data.map((c: { id: string }) => c.id)).toEqual([created[2], created[1]]);
    const page3 = (await list(`?agentId=${agentId}&limit=2&cursor=${page2.nextCursor}`)).body;
    expect(page3).toEqual({
      data: [expect.objectContaining({ id: created[0] })],
      nextCursor: null,
    });
  });

  test("lists every agent's conversations without agentId", async () => {
    expect((await list("")).body.data).toHaveLength(6);
  });

  test.each([["?limit=0"], ["?limit=101"], ["?limit=x"], ["?cursor=bm90LWEtY3Vyc29y"]])(
    "refuses %s with 400",
    async (query) => {
      const response = await list(query);
      expect(response.status).toBe(400);
      expect(response.error.type).toBe("INVALID_REQUEST");
    },
  );
});

describe("GET /api/conversations/{id}", () => {
  test("returns the messages in the order they were written, drafts marked", async () => {
    const id = created[0]!;
    await append(agentId, { query: "second", conversationId: id });
    await append(agentId, { query: "third (draft)", conversationId: id, isDraft: true });
    const response = await app.client(org.auth).conversations.get(id);
    expect(response.status).toBe(200);
    const body = response.body;
    expect(
      body.messages.map((m: { text: string; isDraft: boolean }) => [m.text, m.isDraft]),
    ).toEqual([
      ["conversation 0", false],
      ["second", false],
      ["third (draft)", true],
    ]);
  });

  test("answers 404 CONVERSATION_NOT_FOUND for an unknown id", async () => {
    const response = await app.client(org.auth).conversations.get("nope");
    expect(response.status).toBe(404);
    expect(response.error.type).toBe("CONVERSATION_NOT_FOUND");
  });
});

describe("conversation paging with timestamps finer than a millisecond", () => {
  test("neither skips nor repeats conversations created within the same millisecond", async () => {
    const listed = async (agentId: string) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const response: { data: Array<{ id: string }>; nextCursor: string | null } = (
          await list(`?agentId=${agentId}&limit=3${cursor ? `&cursor=${cursor}` : ""}`)
        ).body;
        ids.push(...response.data.map((conversation) => conversation.id));
        cursor = response.nextCursor;
      } while (cursor);
      return ids;
    };
    const agent = await createAgent(app, org, { name: "Microseconds" });
    await app.database.db.execute(sql`
      insert into conversations (id, external_id, organization_id, agent_id, visitor_id, created_at)
      select 'micro-' || n, 'micro-' || n, ${org.id}, ${agent.id}, 'v',
             timestamptz '2024-01-01 00:00:00.123' + (n || ' microseconds')::interval
      from generate_series(1, 10) as n`);
    const ids = await listed(agent.id);
    expect(ids).toEqual(Array.from({ length: 10 }, (_, index) => `micro-${10 - index}`));
  });
});
