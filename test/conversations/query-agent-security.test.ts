import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ANONYMOUS_CONVERSATION_REFUSED } from "../../src/domain/conversations/agent-message-service.ts";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  startQueryTestApp,
} from "../harness/agents.ts";
import type { TestOrganization } from "../harness/app.ts";
import { type Reply, unchecked } from "../harness/client.ts";
import { postSse, summarize } from "../harness/sse-client.ts";

let t: QueryTestApp;
let owner: TestOrganization;
let stranger: TestOrganization;
let deskId: string;
let widgetId: string;
let strangerWidgetId: string;
beforeAll(async () => {
  t = await startQueryTestApp();
  owner = await createFundedOrganization(t.app, "Owner");
  stranger = await createFundedOrganization(t.app, "Stranger");
  deskId = (await createAgent(t.app, owner, { name: "Desk" })).id;
  widgetId = (await createAgent(t.app, owner, { name: "Widget", visibility: "public" })).id;
  strangerWidgetId = (await createAgent(t.app, stranger, { name: "Theirs", visibility: "public" }))
    .id;
});
afterAll(() => t.close());

const append = (agentId: string, body: Record<string, unknown>, who?: TestOrganization) =>
  t.app.client(who ? who.auth : {}).agents.queryAgent(agentId, unchecked(body));

/** The texts of a conversation as its organization reads it; null when it does not exist. */
async function textsOf(who: TestOrganization, conversationId: string, agentId: string) {
  const response = await t.app
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
  test("gives two organizations using the same id each their own conversation", async () => {
    const shared = "crmchatsappai_5_6";
    const mine = await append(deskId, { query: "owner's note", conversationId: shared }, owner);
    const theirs = await append(
      strangerWidgetId,
      { query: "stranger's note", conversationId: shared },
      stranger,
    );
    for (const response of [mine, theirs]) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ conversationId: shared, visitorId: shared });
    }
    expect(await textsOf(owner, shared, deskId)).toEqual(["owner's note"]);
    expect(await textsOf(stranger, shared, strangerWidgetId)).toEqual(["stranger's note"]);
  });

  test("does the same over SSE", async () => {
    const shared = "crmchatsappai_streamed_9";
    await append(deskId, { query: "owner's note", conversationId: shared }, owner);
    const base = await t.app.listen("api");
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
    expect(await textsOf(stranger, shared, strangerWidgetId)).toEqual(["streamed by the stranger"]);
    expect(await textsOf(owner, shared, deskId)).toEqual(["owner's note"]);
  });

  test("answers exactly as for an id never used anywhere", async () => {
    const used = "crmchatsappai_used_3";
    const fresh = "crmchatsappai_fresh_3";
    await append(deskId, { query: "owner's note", conversationId: used }, owner);
    const onUsed = await append(strangerWidgetId, { query: "hi", conversationId: used }, stranger);
    const onFresh = await append(
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

  test("gives another agent of the organization its own conversation with the same id", async () => {
    const shared = "crmchatsappai_11_12";
    await append(deskId, { query: "to the desk", conversationId: shared }, owner);
    const response = await append(
      widgetId,
      { query: "to the widget", conversationId: shared },
      owner,
    );
    expect(response.status).toBe(200);
    expect(await textsOf(owner, shared, deskId)).toEqual(["to the desk"]);
    expect(await textsOf(owner, shared, widgetId)).toEqual(["to the widget"]);
  });
});

describe("query-agent without a key adds only to conversations it started", () => {
  test("cannot inject into a CRM conversation, and is told the same as for an unknown id", async () => {
    const crm = "crmchatsappai_77_88";
    await append(widgetId, { query: "Agent: your order shipped", conversationId: crm }, owner);

    const injected = await append(widgetId, {
      query: "ANON INJECTED AGENT MESSAGE",
      conversationId: crm,
      visitorId: crm,
    });
    const unknown = await append(widgetId, {
      query: "ANON INJECTED AGENT MESSAGE",
      conversationId: "crmchatsappai_99_100",
      visitorId: "crmchatsappai_99_100",
    });
    expect(errorOf(injected)).toEqual(REFUSED);
    expect(errorOf(unknown)).toEqual(REFUSED);
    expect(await textsOf(owner, crm, widgetId)).toEqual(["Agent: your order shipped"]);
    expect(await textsOf(owner, "crmchatsappai_99_100", widgetId)).toBeNull();
  });

  test("is refused before any stream starts", async () => {
    const crm = "crmchatsappai_streamed_77";
    await append(widgetId, { query: "Agent: hello", conversationId: crm }, owner);
    const base = await t.app.listen("api");
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
    expect(await textsOf(owner, crm, widgetId)).toEqual(["Agent: hello"]);
  });

  test("cannot write into a whatsapp conversation", async () => {
    const channelExternalId = `${owner.id}_${widgetId}_34600111222`;
    const started = (
      await append(widgetId, { query: "Hola", channel: "whatsapp", channelExternalId }, owner)
    ).body;

    const byExternalId = await append(widgetId, {
      query: "ANON",
      channel: "whatsapp",
      channelExternalId,
    });
    expect(byExternalId.status).toBe(401);
    expect(byExternalId.error.type).toBe("UNAUTHORIZED");
    const byId = await append(widgetId, {
      query: "ANON",
      conversationId: started.conversationId,
      visitorId: started.visitorId,
    });
    expect(errorOf(byId)).toEqual(REFUSED);
    expect(await textsOf(owner, started.conversationId, widgetId)).toEqual(["Hola"]);
  });

  test("cannot add to another visitor's conversation, and continues its own", async () => {
    const started = await append(widgetId, { query: "Welcome!", visitorId: "visitor-1" });
    expect(started.status).toBe(200);
    const { conversationId } = started.body;

    const otherVisitor = await append(widgetId, {
      query: "Injected",
      conversationId,
      visitorId: "visitor-2",
    });
    const noVisitor = await append(widgetId, { query: "Injected", conversationId });
    expect(errorOf(otherVisitor)).toEqual(REFUSED);
    expect(errorOf(noVisitor)).toEqual(REFUSED);
    const own = await append(widgetId, {
      query: "Still there?",
      conversationId,
      visitorId: "visitor-1",
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ conversationId, visitorId: "visitor-1" });
    expect(await textsOf(owner, conversationId, widgetId)).toEqual(["Welcome!", "Still there?"]);
  });

  test("cannot add to a conversation started with a key, even with its visitorId", async () => {
    const keyed = (
      await append(widgetId, { query: "Agent: hi", visitorId: "known-visitor" }, owner)
    ).body;
    const response = await append(widgetId, {
      query: "Injected",
      conversationId: keyed.conversationId,
      visitorId: "known-visitor",
    });
    expect(errorOf(response)).toEqual(REFUSED);
    expect(await textsOf(owner, keyed.conversationId, widgetId)).toEqual(["Agent: hi"]);
  });

  test("cannot choose a conversation id: nothing is created under it", async () => {
    const response = await append(widgetId, {
      query: "Welcome!",
      conversationId: "my-widget-conversation",
      visitorId: "visitor-3",
    });
    expect(errorOf(response)).toEqual(REFUSED);
    expect(await textsOf(owner, "my-widget-conversation", widgetId)).toBeNull();
  });

  test("writes only to website, form, dashboard or api conversations", async () => {
    for (const channel of ["whatsapp", "telegram", "crmchatsappai", "chatwoot"]) {
      const response = await append(widgetId, { query: "hi", channel });
      expect(response.status, channel).toBe(401);
    }
    const viaMetadata = await append(widgetId, { query: "hi", metadata: { channel: "meta" } });
    expect(viaMetadata.status).toBe(401);
    const website = await append(widgetId, { query: "hi", channel: "website" });
    expect(website.status).toBe(200);
  });
});
