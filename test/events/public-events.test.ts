import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { openSse } from "../harness/sse-client.ts";
import { publicChat } from "../public-chat/public-chat-helpers.ts";
import { dataOf, publish } from "./live-events-helpers.ts";

const VISITOR = "visitor-events-1";
const OTHER_VISITOR = "visitor-events-2";

const test = appTest().extend("base", { scope: "file" }, ({ app }) => app.listen("api"));

let agentId: string;
let conversationId: string;
let otherConversationId: string;

/** A conversation the visitor starts through the public chat. */
async function startConversation(app: TestApp, visitorId: string): Promise<string> {
  const response = await publicChat(app, agentId, { query: "Hello?", visitorId });
  expect(response.statusCode).toBe(200);
  return response.json().conversationId;
}

const streamUrl = (base: string, conversation: string, visitorId: string, agent = agentId) =>
  `${base}/api/public/agents/${agent}/conversations/${conversation}/events?visitorId=${visitorId}`;

/** An operator's reply as the handoff service publishes it: with fields a visitor must not see. */
const operatorReply = (org: TestOrganization, conversation: string, text: string) => ({
  organizationId: org.id,
  agentId,
  conversationId: conversation,
  name: "message.created" as const,
  data: {
    message: {
      id: `message-${text}`,
      from: "agent",
      text,
      sources: [{ source: "internal.pdf", chunk: "secret" }],
      usage: null,
      attachments: [],
      metadata: { crm: "internal" },
      isDraft: false,
      agentId,
      createdAt: "2026-12-01T10:00:00.000Z",
      user: { id: "user-1", email: "jane@acme.example", name: "Jane" },
    },
  },
});

test.beforeAll(async ({ app, org }) => {
  agentId = (await createAgent(app, org, { visibility: "public" })).id;
  conversationId = await startConversation(app, VISITOR);
  otherConversationId = await startConversation(app, OTHER_VISITOR);
});

describe("GET /api/public/agents/{id}/conversations/{cid}/events", () => {
  test("streams the visitor's conversation's messages and changes, as much as a visitor may see", async ({
    app,
    org,
    base,
  }) => {
    const stream = await openSse(streamUrl(base, conversationId, VISITOR));
    expect(stream.status).toBe(200);
    await publish(app, operatorReply(org, otherConversationId, "not yours"));
    await publish(app, {
      organizationId: org.id,
      agentId,
      conversationId,
      name: "conversation.human_requested",
      data: { status: "HUMAN_REQUESTED" },
    });
    await publish(app, {
      organizationId: org.id,
      agentId,
      conversationId,
      name: "conversation.updated",
      data: {
        status: "HUMAN_REQUESTED",
        aiEnabled: false,
        assignee: { id: "user-1", email: "jane@acme.example", name: "Jane" },
      },
    });
    await publish(app, operatorReply(org, conversationId, "Hi, Jane here"));
    await publish(app, {
      ...operatorReply(org, conversationId, "a draft"),
      data: { message: { ...operatorReply(org, conversationId, "").data.message, isDraft: true } },
    });
    await publish(app, operatorReply(org, conversationId, "last"));
    const events = await stream.waitFor(3);
    await stream.close();

    expect(stream.events.map((event) => event.event)).toEqual([
      "conversation.updated",
      "message.created",
      "message.created",
    ]);
    expect(dataOf(events[0]!)).toEqual({
      conversationId,
      agentId,
      status: "HUMAN_REQUESTED",
      aiEnabled: false,
    });
    expect(dataOf(events[1]!)).toEqual({
      conversationId,
      agentId,
      message: {
        id: "message-Hi, Jane here",
        from: "agent",
        text: "Hi, Jane here",
        createdAt: "2026-12-01T10:00:00.000Z",
        operator: { name: "Jane" },
      },
    });
    expect(stream.events.map((event) => event.data).join("")).not.toMatch(/jane@|internal|secret/);
  });

  test("resumes after Last-Event-ID within the conversation", async ({ app, org, base }) => {
    const first = await openSse(streamUrl(base, conversationId, VISITOR));
    await publish(app, operatorReply(org, conversationId, "one"));
    const [one] = await first.waitFor(1);
    await first.close();
    await publish(app, operatorReply(org, otherConversationId, "elsewhere"));
    await publish(app, operatorReply(org, conversationId, "two"));
    const resumed = await openSse(streamUrl(base, conversationId, VISITOR), {
      "last-event-id": one!.id!,
    });
    const [two] = await resumed.waitFor(1);
    await resumed.close();
    expect((dataOf(two!).message as { text: string }).text).toBe("two");
  });

  test("forgets an erased conversation's events: a resumed stream does not replay them", async ({
    app,
    org,
    base,
  }) => {
    const erasedId = await startConversation(app, "visitor-events-erased");
    const before = await openSse(`${base}/api/events`, org.auth);
    await publish(app, operatorReply(org, erasedId, "to be erased"));
    await publish(app, operatorReply(org, conversationId, "kept"));
    const [first] = await before.waitFor(2);
    await before.close();
    const erased = await app.api.inject({
      method: "DELETE",
      url: `/api/conversations/${erasedId}`,
      headers: org.auth,
    });
    expect(erased.statusCode).toBe(200);
    const resumed = await openSse(`${base}/api/events`, {
      ...org.auth,
      "last-event-id": String(Number(first!.id) - 1),
    });
    const [replayed] = await resumed.waitFor(1);
    await resumed.close();
    expect(resumed.events).toHaveLength(1);
    expect(dataOf(replayed!)).toMatchObject({ conversationId, message: { text: "kept" } });
  });

  test("is 404 for another visitor's conversation, an unknown one, or a private agent", async ({
    app,
    org,
    base,
  }) => {
    const privateAgent = await createAgent(app, org, { visibility: "private" });
    const refusals = [
      [streamUrl(base, conversationId, OTHER_VISITOR), "CONVERSATION_NOT_FOUND"],
      [streamUrl(base, "no-such-conversation", VISITOR), "CONVERSATION_NOT_FOUND"],
      [streamUrl(base, conversationId, VISITOR, privateAgent.id), "NOT_FOUND"],
    ] as const;
    for (const [url, type] of refusals) {
      const refused = await openSse(url);
      expect(refused.status).toBe(404);
      expect(refused.json).toMatchObject({ type });
    }
  });

  test("is 400 without a visitorId, and 403 from an origin the agent does not allow", async ({
    app,
    org,
    base,
  }) => {
    const missing = await openSse(streamUrl(base, conversationId, VISITOR).replace(/\?.*$/, ""));
    expect(missing.status).toBe(400);
    const listed = await app
      .client(org.auth)
      .agents.update(agentId, { allowedOrigins: ["https://shop.example.com"] });
    expect(listed.status).toBe(200);
    try {
      const foreign = await openSse(streamUrl(base, conversationId, VISITOR), {
        origin: "https://evil.example.com",
      });
      expect(foreign.status).toBe(403);
      const allowed = await openSse(streamUrl(base, conversationId, VISITOR), {
        origin: "https://shop.example.com",
      });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
      await allowed.close();
    } finally {
      await app.client(org.auth).agents.update(agentId, { allowedOrigins: [] });
    }
  });
});
