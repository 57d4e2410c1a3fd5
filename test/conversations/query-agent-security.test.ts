import { describe, expect } from "vitest";
import { ANONYMOUS_CONVERSATION_REFUSED } from "../../src/domain/conversations/agent-message-service.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { type Reply, unchecked } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";

const test = appTest({ orgName: "Owner", agent: { name: "Desk" } });

let stranger: TestOrganization;
let widgetId: string;
let strangerWidgetId: string;
test.beforeAll(async ({ app, org: owner }) => {
  stranger = await createFundedOrganization(app, "Stranger");
  widgetId = (await createAgent(app, owner, { name: "Widget", visibility: "public" })).id;
  strangerWidgetId = (await createAgent(app, stranger, { name: "Theirs", visibility: "public" }))
    .id;
});

const append = (
  app: TestApp,
  agentId: string,
  body: Record<string, unknown>,
  who?: TestOrganization,
) => app.client(who ? who.auth : {}).agents.queryAgent(agentId, unchecked(body));

/** The texts of a conversation as its organization reads it; null when it does not exist. */
async function textsOf(
  app: TestApp,
  who: TestOrganization,
  conversationId: string,
  agentId: string,
) {
  const response = await app
    .client(who.auth)
    .conversations.get(encodeURIComponent(conversationId), { agentId });
  if (response.status === 404) return null;
  expect(response.status).toBe(200);
  return response.body.messages.map((message: { text: string }) => message.text) as string[];
}

/** The error body without its request id, which differs on every request. */
function errorOf(response: Reply<unknown>) {
  const { requestId, ...body } = response.error;
  expect(requestId).toEqual(expect.any(String));
  return { status: response.status, ...body };
}

const REFUSED = { status: 401, type: "UNAUTHORIZED", error: ANONYMOUS_CONVERSATION_REFUSED };

describe("query-agent: a conversation id belongs to its organization and agent", () => {
  test("gives two organizations using the same id each their own conversation", async ({
    app,
    org: owner,
    agent,
  }) => {
    const shared = "crmchatsappai_5_6";
    const mine = await append(
      app,
      agent.id,
      { query: "owner's note", conversationId: shared },
      owner,
    );
    const theirs = await append(
      app,
      strangerWidgetId,
      { query: "stranger's note", conversationId: shared },
      stranger,
    );
    for (const response of [mine, theirs]) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ conversationId: shared, visitorId: shared });
    }
    expect(await textsOf(app, owner, shared, agent.id)).toEqual(["owner's note"]);
    expect(await textsOf(app, stranger, shared, strangerWidgetId)).toEqual(["stranger's note"]);
  });

  test("does the same over SSE", async ({ app, org: owner, agent }) => {
    const shared = "crmchatsappai_streamed_9";
    await append(app, agent.id, { query: "owner's note", conversationId: shared }, owner);
    const base = await app.listen("api");
    const result = await postSse(
      `${base}/api/agents/${strangerWidgetId}/query-agent`,
      stranger.auth,
      {
        query: "streamed by the stranger",
        conversationId: shared,
        streaming: true,
      },
    );
    const { answer, response, last } = summarize(result);
    expect(answer).toBe("streamed by the stranger");
    expect(response).toMatchObject({ conversationId: shared, status: "UNRESOLVED" });
    expect(last).toBe("[DONE]");
    expect(await textsOf(app, stranger, shared, strangerWidgetId)).toEqual([
      "streamed by the stranger",
    ]);
    expect(await textsOf(app, owner, shared, agent.id)).toEqual(["owner's note"]);
  });

  test("answers exactly as for an id never used anywhere", async ({ app, org: owner, agent }) => {
    const used = "crmchatsappai_used_3";
    const fresh = "crmchatsappai_fresh_3";
    await append(app, agent.id, { query: "owner's note", conversationId: used }, owner);
    const onUsed = await append(
      app,
      strangerWidgetId,
      { query: "hi", conversationId: used },
      stranger,
    );
    const onFresh = await append(
      app,
      strangerWidgetId,
      { query: "hi", conversationId: fresh },
      stranger,
    );
    expect(onUsed.status).toBe(200);
    expect(onFresh.status).toBe(200);
    const comparable = (body: Record<string, unknown>) => ({
      ...body,
      messageId: "…",
      conversationId: "…",
      visitorId: "…",
    });
    expect(comparable(onUsed.body)).toEqual(comparable(onFresh.body));
  });

  test("gives another agent of the organization its own conversation with the same id", async ({
    app,
    org: owner,
    agent,
  }) => {
    const shared = "crmchatsappai_11_12";
    await append(app, agent.id, { query: "to the desk", conversationId: shared }, owner);
    const response = await append(
      app,
      widgetId,
      { query: "to the widget", conversationId: shared },
      owner,
    );
    expect(response.status).toBe(200);
    expect(await textsOf(app, owner, shared, agent.id)).toEqual(["to the desk"]);
    expect(await textsOf(app, owner, shared, widgetId)).toEqual(["to the widget"]);
  });
});

describe("query-agent without a key adds only to conversations it started", () => {
  test("cannot inject into a CRM conversation, and is told the same as for an unknown id", async ({
    app,
    org: owner,
  }) => {
    const crm = "crmchatsappai_77_88";
    await append(app, widgetId, { query: "Agent: your order shipped", conversationId: crm }, owner);

    const injected = await append(app, widgetId, {
      query: "ANON INJECTED AGENT MESSAGE",
      conversationId: crm,
      visitorId: crm,
    });
    const unknown = await append(app, widgetId, {
      query: "ANON INJECTED AGENT MESSAGE",
      conversationId: "crmchatsappai_99_100",
      visitorId: "crmchatsappai_99_100",
    });
    expect(errorOf(injected)).toEqual(REFUSED);
    expect(errorOf(unknown)).toEqual(REFUSED);
    expect(await textsOf(app, owner, crm, widgetId)).toEqual(["Agent: your order shipped"]);
    expect(await textsOf(app, owner, "crmchatsappai_99_100", widgetId)).toBeNull();
  });

  test("is refused before any stream starts", async ({ app, org: owner }) => {
    const crm = "crmchatsappai_streamed_77";
    await append(app, widgetId, { query: "Agent: hello", conversationId: crm }, owner);
    const base = await app.listen("api");
    const result = await postSse(
      `${base}/api/agents/${widgetId}/query-agent`,
      {},
      {
        query: "ANON INJECTED AGENT MESSAGE",
        conversationId: crm,
        visitorId: crm,
        streaming: true,
      },
    );
    expect(result.status).toBe(401);
    expect(result.json).toMatchObject({
      type: "UNAUTHORIZED",
      error: ANONYMOUS_CONVERSATION_REFUSED,
    });
    expect(await textsOf(app, owner, crm, widgetId)).toEqual(["Agent: hello"]);
  });

  test("cannot write into a whatsapp conversation", async ({ app, org: owner }) => {
    const channelExternalId = `${owner.id}_${widgetId}_34600111222`;
    const started = (
      await append(app, widgetId, { query: "Hola", channel: "whatsapp", channelExternalId }, owner)
    ).body;

    const byExternalId = await append(app, widgetId, {
      query: "ANON",
      channel: "whatsapp",
      channelExternalId,
    });
    expect(byExternalId.status).toBe(401);
    expect(byExternalId.error.type).toBe("UNAUTHORIZED");
    const byId = await append(app, widgetId, {
      query: "ANON",
      conversationId: started.conversationId,
      visitorId: started.visitorId,
    });
    expect(errorOf(byId)).toEqual(REFUSED);
    expect(await textsOf(app, owner, started.conversationId, widgetId)).toEqual(["Hola"]);
  });

  test("cannot add to another visitor's conversation, and continues its own", async ({
    app,
    org: owner,
  }) => {
    const started = await append(app, widgetId, { query: "Welcome!", visitorId: "visitor-1" });
    expect(started.status).toBe(200);
    const { conversationId } = started.body;

    const otherVisitor = await append(app, widgetId, {
      query: "Injected",
      conversationId,
      visitorId: "visitor-2",
    });
    const noVisitor = await append(app, widgetId, { query: "Injected", conversationId });
    expect(errorOf(otherVisitor)).toEqual(REFUSED);
    expect(errorOf(noVisitor)).toEqual(REFUSED);
    const own = await append(app, widgetId, {
      query: "Still there?",
      conversationId,
      visitorId: "visitor-1",
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ conversationId, visitorId: "visitor-1" });
    expect(await textsOf(app, owner, conversationId, widgetId)).toEqual([
      "Welcome!",
      "Still there?",
    ]);
  });

  test("cannot add to a conversation started with a key, even with its visitorId", async ({
    app,
    org: owner,
  }) => {
    const keyed = (
      await append(app, widgetId, { query: "Agent: hi", visitorId: "known-visitor" }, owner)
    ).body;
    const response = await append(app, widgetId, {
      query: "Injected",
      conversationId: keyed.conversationId,
      visitorId: "known-visitor",
    });
    expect(errorOf(response)).toEqual(REFUSED);
    expect(await textsOf(app, owner, keyed.conversationId, widgetId)).toEqual(["Agent: hi"]);
  });

  test("cannot choose a conversation id: nothing is created under it", async ({
    app,
    org: owner,
  }) => {
    const response = await append(app, widgetId, {
      query: "Welcome!",
      conversationId: "my-widget-conversation",
      visitorId: "visitor-3",
    });
    expect(errorOf(response)).toEqual(REFUSED);
    expect(await textsOf(app, owner, "my-widget-conversation", widgetId)).toBeNull();
  });

  test("writes only to website, form, dashboard or api conversations", async ({ app }) => {
    for (const channel of ["whatsapp", "telegram", "crmchatsappai", "chatwoot"]) {
      const response = await append(app, widgetId, { query: "hi", channel });
      expect(response.status, channel).toBe(401);
    }
    const viaMetadata = await append(app, widgetId, { query: "hi", metadata: { channel: "meta" } });
    expect(viaMetadata.status).toBe(401);
    const website = await append(app, widgetId, { query: "hi", channel: "website" });
    expect(website.status).toBe(200);
  });
});
