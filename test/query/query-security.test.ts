import { describe, expect } from "vitest";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";

const test = appTest({ orgName: "Owner", agent: { name: "Sales" } });

let stranger: TestOrganization;
let siblingId: string;
let conversationId: string;
test.beforeAll(async ({ app, org, api, agent }) => {
  stranger = await createFundedOrganization(app, "Stranger");
  siblingId = (await createAgent(app, org, { name: "Support" })).id;
  conversationId = (await api.agents.query(agent.id, { query: "private question" })).body
    .conversationId;
});

async function read(app: TestApp, who: TestOrganization, id: string, agent?: string) {
  const response = await app.client(who.auth).conversations.get(id, { agentId: agent });
  expect(response.status).toBe(200);
  return response.body as { agentId: string; messages: Array<{ text: string }> };
}

const textsOf = (conversation: { messages: Array<{ text: string }> }) =>
  conversation.messages.map((message) => message.text);

/** What the model was sent for the latest query, as role and text. */
function lastPrompt(fake: FakeOpenAI) {
  return (fake.requests.at(-1)?.body?.messages ?? []) as Array<{ role: string; content: string }>;
}

/** A response with the ids that differ from request to request blanked out. */
function comparable(body: Record<string, unknown>) {
  return { ...body, messageId: "…", conversationId: "…", visitorId: "…" };
}

describe("a conversation id is looked up within the caller's organization and agent", () => {
  test("gives another organization using the same id a conversation of its own", async ({
    app,
    api,
    fake,
    org,
    agent: { id: agentId },
  }) => {
    const shared = "crmchatsappai_5_6";
    const owned = await api.agents.query(agentId, {
      query: "owner's secret",
      conversationId: shared,
    });
    expect(owned.status).toBe(200);
    const strangerAgent = await createAgent(app, stranger);

    const response = await app.client(stranger.auth).agents.query(strangerAgent.id, {
      query: "stranger writes",
      conversationId: shared,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      conversationId: shared,
      visitorId: shared,
      answer: "Answer: stranger writes",
      status: "UNRESOLVED",
    });
    expect(JSON.stringify(lastPrompt(fake))).not.toContain("owner's secret");
    expect(textsOf(await read(app, stranger, shared))).toEqual([
      "stranger writes",
      "Answer: stranger writes",
    ]);
    expect(textsOf(await read(app, org, shared))).toEqual([
      "owner's secret",
      "Answer: owner's secret",
    ]);
  });

  test("does the same over SSE", async ({ app, api, fake, org, agent: { id: agentId } }) => {
    const shared = "crmchatsappai_streamed_1";
    await api.agents.query(agentId, { query: "owner's streamed secret", conversationId: shared });
    const strangerAgent = await createAgent(app, stranger);
    const base = await app.listen("api");
    const result = await postSse(`${base}/api/agents/${strangerAgent.id}/query`, stranger.auth, {
      query: "stranger streams",
      conversationId: shared,
      streaming: true,
    });
    const { response, last } = summarize(result);
    expect(result.status).toBe(200);
    expect(response).toMatchObject({ conversationId: shared, answer: "Answer: stranger streams" });
    expect(last).toBe("[DONE]");
    expect(JSON.stringify(lastPrompt(fake))).not.toContain("owner's streamed secret");
    expect(textsOf(await read(app, stranger, shared))).toEqual([
      "stranger streams",
      "Answer: stranger streams",
    ]);
    expect(textsOf(await read(app, org, shared))).toHaveLength(2);
  });

  test("answers exactly as for an id never used anywhere, prompt included", async ({
    app,
    api,
    fake,
    agent: { id: agentId },
  }) => {
    const used = "crmchatsappai_used_2";
    const fresh = "crmchatsappai_fresh_2";
    await api.agents.query(agentId, { query: "owner's question", conversationId: used });
    const strangerAgent = await createAgent(app, stranger);

    const onUsed = await app.client(stranger.auth).agents.query(strangerAgent.id, {
      query: "hi",
      conversationId: used,
    });
    const promptOnUsed = lastPrompt(fake);
    const onFresh = await app.client(stranger.auth).agents.query(strangerAgent.id, {
      query: "hi",
      conversationId: fresh,
    });
    expect(onUsed.status).toBe(200);
    expect(onFresh.status).toBe(200);
    expect(comparable(onUsed.body)).toEqual(comparable(onFresh.body));
    expect(promptOnUsed).toEqual(lastPrompt(fake));
  });

  test("gives another agent of the same organization its own conversation with the same id", async ({
    app,
    api,
    fake,
    org,
    agent: { id: agentId },
  }) => {
    const shared = "crmchatsappai_7_8";
    await api.agents.query(agentId, { query: "to sales", conversationId: shared });
    const response = await api.agents.query(siblingId, {
      query: "to support",
      conversationId: shared,
    });
    expect(response.status).toBe(200);
    expect(response.body.conversationId).toBe(shared);
    expect(JSON.stringify(lastPrompt(fake))).not.toContain("to sales");
    expect(textsOf(await read(app, org, shared, agentId))).toEqual([
      "to sales",
      "Answer: to sales",
    ]);
    expect(textsOf(await read(app, org, shared, siblingId))).toEqual([
      "to support",
      "Answer: to support",
    ]);
  });
});

describe("another organization's agent", () => {
  test("cannot be queried: 404 NOT_FOUND and no model call", async ({
    app,
    fake,
    agent: { id: agentId },
  }) => {
    const response = await app.client(stranger.auth).agents.query(agentId, { query: "hi" });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ type: "NOT_FOUND", error: "Agent not found" });
    expect(fake.requests).toHaveLength(0);
  });

  test("has conversations the stranger cannot list or read", async ({
    app,
    agent: { id: agentId },
  }) => {
    const list = await app.client(stranger.auth).conversations.list({ agentId: agentId });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    const read = await app.client(stranger.auth).conversations.get(conversationId);
    expect(read.status).toBe(404);
    expect(read.body.type).toBe("CONVERSATION_NOT_FOUND");
  });

  test("cannot be exported by the stranger", async ({ app, agent: { id: agentId } }) => {
    const response = await app.client(stranger.auth).agents.exportConversations(agentId);
    expect(response.status).toBe(404);
    expect(response.body.type).toBe("NOT_FOUND");
  });

  test("matches contacts only within the organization", async ({
    app,
    api,
    org,
    agent: { id: agentId },
  }) => {
    const mine = (
      await api.agents.query(agentId, { query: "hi", contact: { email: "same@example.com" } })
    ).body;
    const strangerAgent = await createAgent(app, stranger);
    const theirs = (
      await app.client(stranger.auth).agents.query(strangerAgent.id, {
        query: "hi",
        contact: { email: "same@example.com" },
      })
    ).body;
    const contactOf = async (who: TestOrganization, id: string) =>
      (await app.client(who.auth).conversations.get(id)).body.contact;
    const first = await contactOf(org, mine.conversationId);
    const second = await contactOf(stranger, theirs.conversationId);
    expect(first.email).toBe("same@example.com");
    expect(second.email).toBe("same@example.com");
    expect(first.id).not.toBe(second.id);
  });
});
