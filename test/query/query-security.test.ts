import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  query,
  startQueryTestApp,
} from "../agents/agent-helpers.ts";
import type { TestOrganization } from "../harness/app.ts";

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

async function messageCount() {
  const response = await t.app.api.inject({
    url: `/api/conversations/${conversationId}`,
    headers: org.auth,
  });
  return response.json().messages.length;
}

describe("conversation ids that belong elsewhere are never joined", () => {
  it("refuses a conversation of another agent of the same organization with 404", async () => {
    const response = await query(t.app, org, siblingId, { query: "hi", conversationId });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      type: "CONVERSATION_NOT_FOUND",
      error: `Conversation ${conversationId} is not a conversation of this agent`,
    });
    expect(t.fake.requests).toHaveLength(0);
    expect(await messageCount()).toBe(2);
  });

  it("refuses a conversation of another organization with the same 404, revealing nothing", async () => {
    const strangerAgent = await createAgent(t.app, stranger);
    const response = await query(t.app, stranger, strangerAgent.id, {
      query: "hi",
      conversationId,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      type: "CONVERSATION_NOT_FOUND",
      error: `Conversation ${conversationId} is not a conversation of this agent`,
    });
    expect(response.body).not.toContain("private question");
    expect(t.fake.requests).toHaveLength(0);
    expect(await messageCount()).toBe(2);
  });

  it("refuses the same over SSE before the stream starts", async () => {
    const base = await t.app.listen("api");
    const response = await fetch(`${base}/api/agents/${siblingId}/query`, {
      method: "POST",
      headers: { ...org.auth, "content-type": "application/json" },
      body: JSON.stringify({ query: "hi", conversationId, streaming: true }),
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
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
