import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { type ApiClient, unchecked } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true, orgName: "Reader", funded: false });

const created: string[] = [];

const append = (api: ApiClient, id: string, body: Record<string, unknown>) =>
  api.agents.queryAgent(id, unchecked(body));

test.beforeAll(async ({ app, org, api, agent }) => {
  const otherAgentId = (await createAgent(app, org, { name: "Other" })).id;
  for (let index = 0; index < 5; index += 1) {
    created.push(
      (await append(api, agent.id, { query: `conversation ${index}` })).body.conversationId,
    );
  }
  await append(api, otherAgentId, { query: "elsewhere" });
});

const list = (api: ApiClient, query: string) =>
  api.request({ method: "GET", url: `/api/conversations${query}` });

describe("GET /api/conversations", () => {
  test("lists an agent's conversations newest first, page by page", async ({ api, agent }) => {
    const first = await list(api, `?agentId=${agent.id}&limit=2`);
    expect(first.status).toBe(200);
    const page1 = first.body;
    expect(page1.data.map((c: { id: string }) => c.id)).toEqual([created[4], created[3]]);
    expect(page1.data[0]).toMatchObject({
      agentId: agent.id,
      channel: "api",
      status: "UNRESOLVED",
      contact: null,
    });
    const page2 = (await list(api, `?agentId=${agent.id}&limit=2&cursor=${page1.nextCursor}`)).body;
    expect(page2.data.map((c: { id: string }) => c.id)).toEqual([created[2], created[1]]);
    const page3 = (await list(api, `?agentId=${agent.id}&limit=2&cursor=${page2.nextCursor}`)).body;
    expect(page3).toEqual({
      data: [expect.objectContaining({ id: created[0] })],
      nextCursor: null,
    });
  });

  test("lists every agent's conversations without agentId", async ({ api }) => {
    expect((await list(api, "")).body.data).toHaveLength(6);
  });

  test.for([["?limit=0"], ["?limit=101"], ["?limit=x"], ["?cursor=bm90LWEtY3Vyc29y"]] as const)(
    "refuses %s with 400",
    async ([query], { api }) => {
      const response = await list(api, query);
      expect(response.status).toBe(400);
      expect(response.error.type).toBe("INVALID_REQUEST");
    },
  );
});

describe("GET /api/conversations/{id}", () => {
  test("returns the messages in the order they were written, drafts marked", async ({
    api,
    agent,
  }) => {
    const id = created[0]!;
    await append(api, agent.id, { query: "second", conversationId: id });
    await append(api, agent.id, { query: "third (draft)", conversationId: id, isDraft: true });
    const response = await api.conversations.get(id);
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

  test("answers 404 CONVERSATION_NOT_FOUND for an unknown id", async ({ api }) => {
    const response = await api.conversations.get("nope");
    expect(response.status).toBe(404);
    expect(response.error.type).toBe("CONVERSATION_NOT_FOUND");
  });
});

describe("conversation paging with timestamps finer than a millisecond", () => {
  test("neither skips nor repeats conversations created within the same millisecond", async ({
    app,
    org,
    api,
  }) => {
    const listed = async (agentId: string) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const response: { data: Array<{ id: string }>; nextCursor: string | null } = (
          await list(api, `?agentId=${agentId}&limit=3${cursor ? `&cursor=${cursor}` : ""}`)
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
