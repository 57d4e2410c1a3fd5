import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  query,
  startQueryTestApp,
} from "../agents/agent-helpers.ts";
import type { TestOrganization } from "../harness/app.ts";
import { postSse, summarize } from "./sse-client.ts";

let t: QueryTestApp;
let org: TestOrganization;
let stranger: TestOrganization;
let agentId: string;
let siblingId: string;
let conversationId: string;
beforeAll(async () => {
  t = await startQueryTestApp();
  org = await createFundedOrganization(t.app, "Owner");
  stranger = await createFundedOrganization(t.app, "Stranger");
  agentId = (await createAgent(t.app, org, { name: "Sales" })).id;
  siblingId = (await createAgent(t.app, org, { name: "Support" })).id;
  conversationId = (await query(t.app, org, agentId, { query: "private question" })).json()
    .conversationId;
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.requests.length = 0;
});

async function read(who: TestOrganization, id: string, agent?: string) {
  const response = await t.app.api.inject({
    url: `/api/conversations/${id}${agent ? `?agentId=${agent}` : ""}`,
    headers: who.auth,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as { agentId: string; messages: Array<{ text: string }> };
}

const textsOf = (conversation: { messages: Array<{ text: string }> }) =>
  conversation.messages.map((message) => message.text);

/** What the model was sent for the latest query, as role and text. */
function lastPrompt() {
  return (t.fake.requests.at(-1)?.body?.messages ?? []) as Array<{ role: string; content: string }>;
}

/** A response with the ids that differ from request to request blanked out. */
function comparable(body: Record<string, unknown>) {
  return { ...body, messageId: "…", conversationId: "…", visitorId: "…" };
}

describe("a conversation id is looked up within the caller's organization and agent", () => {
  it("gives another organization using the same id a conversation of its own", async () => {
    const shared = "crmchatsappai_5_6";
    const owned = await query(t.app, org, agentId, {
      query: "owner's secret",
      conversationId: shared,
    });
    expect(owned.statusCode).toBe(200);
    const strangerAgent = await createAgent(t.app, stranger);

    const response = await query(t.app, stranger, strangerAgent.id, {
      query: "stranger writes",
      conversationId: shared,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      conversationId: shared,
      visitorId: shared,
      answer: "Answer: stranger writes",
      status: "UNRESOLVED",
    });
    expect(JSON.stringify(lastPrompt())).not.toContain("owner's secret");
    expect(textsOf(await read(stranger, shared))).toEqual([
      "stranger writes",
      "Answer: stranger writes",
    ]);
    expect(textsOf(await read(org, shared))).toEqual(["owner's secret", "Answer: owner's secret"]);
  });

  it("does the same over SSE", async () => {
    const shared = "crmchatsappai_streamed_1";
    await query(t.app, org, agentId, { query: "owner's streamed secret", conversationId: shared });
    const strangerAgent = await createAgent(t.app, stranger);
    const base = await t.app.listen("api");
    const result = await postSse(`${base}/api/agents/${strangerAgent.id}/query`, stranger.auth, {
      query: "stranger streams",
      conversationId: shared,
      streaming: true,
    });
    const { response, last } = summarize(result);
    expect(result.status).toBe(200);
    expect(response).toMatchObject({ conversationId: shared, answer: "Answer: stranger streams" });
    expect(last).toBe("[DONE]");
    expect(JSON.stringify(lastPrompt())).not.toContain("owner's streamed secret");
    expect(textsOf(await read(stranger, shared))).toEqual([
      "stranger streams",
      "Answer: stranger streams",
    ]);
    expect(textsOf(await read(org, shared))).toHaveLength(2);
  });

  it("answers exactly as for an id never used anywhere, prompt included", async () => {
    const used = "crmchatsappai_used_2";
    const fresh = "crmchatsappai_fresh_2";
    await query(t.app, org, agentId, { query: "owner's question", conversationId: used });
    const strangerAgent = await createAgent(t.app, stranger);

    const onUsed = await query(t.app, stranger, strangerAgent.id, {
      query: "hi",
      conversationId: used,
    });
    const promptOnUsed = lastPrompt();
    const onFresh = await query(t.app, stranger, strangerAgent.id, {
      query: "hi",
      conversationId: fresh,
    });
    expect(onUsed.statusCode).toBe(200);
    expect(onFresh.statusCode).toBe(200);
    expect(comparable(onUsed.json())).toEqual(comparable(onFresh.json()));
    expect(promptOnUsed).toEqual(lastPrompt());
  });

  it("gives another agent of the same organization its own conversation with the same id", async () => {
    const shared = "crmchatsappai_7_8";
    await query(t.app, org, agentId, { query: "to sales", conversationId: shared });
    const response = await query(t.app, org, siblingId, {
      query: "to support",
      conversationId: shared,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().conversationId).toBe(shared);
    expect(JSON.stringify(lastPrompt())).not.toContain("to sales");
    expect(textsOf(await read(org, shared, agentId))).toEqual(["to sales", "Answer: to sales"]);
    expect(textsOf(await read(org, shared, siblingId))).toEqual([
      "to support",
      "Answer: to support",
    ]);
  });
});

describe("another organization's agent", () => {
  it("cannot be queried: 404 NOT_FOUND and no model call", async () => {
    const response = await query(t.app, stranger, agentId, { query: "hi" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ type: "NOT_FOUND", error: "Agent not found" });
    expect(t.fake.requests).toHaveLength(0);
  });

  it("has conversations the stranger cannot list or read", async () => {
    const list = await t.app.api.inject({
      url: `/api/conversations?agentId=${agentId}`,
      headers: stranger.auth,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([]);
    const read = await t.app.api.inject({
      url: `/api/conversations/${conversationId}`,
      headers: stranger.auth,
    });
    expect(read.statusCode).toBe(404);
    expect(read.json().type).toBe("CONVERSATION_NOT_FOUND");
  });

  it("cannot be exported by the stranger", async () => {
    const response = await t.app.api.inject({
      url: `/api/agents/${agentId}/conversations-export`,
      headers: stranger.auth,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().type).toBe("NOT_FOUND");
  });

  it("matches contacts only within the organization", async () => {
    const mine = (
      await query(t.app, org, agentId, { query: "hi", contact: { email: "same@example.com" } })
    ).json();
    const strangerAgent = await createAgent(t.app, stranger);
    const theirs = (
      await query(t.app, stranger, strangerAgent.id, {
        query: "hi",
        contact: { email: "same@example.com" },
      })
    ).json();
    const contactOf = async (who: TestOrganization, id: string) =>
      (await t.app.api.inject({ url: `/api/conversations/${id}`, headers: who.auth })).json()
        .contact;
    const first = await contactOf(org, mine.conversationId);
    const second = await contactOf(stranger, theirs.conversationId);
    expect(first.email).toBe("same@example.com");
    expect(second.email).toBe("same@example.com");
    expect(first.id).not.toBe(second.id);
  });
});
