import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  startQueryTestApp,
} from "../agents/agent-helpers.ts";
import type { TestOrganization } from "../harness/app.ts";
import { postSse, summarize } from "../query/sse-client.ts";

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
  t.app.api.inject({
    method: "POST",
    url: `/api/agents/${agentId}/query-agent`,
    headers: who ? who.auth : {},
    payload: body,
  });

/** The texts of a conversation as its organization reads it; null when it does not exist. */
async function textsOf(who: TestOrganization, conversationId: string, agentId: string) {
  const response = await t.app.api.inject({
    url: `/api/conversations/${encodeURIComponent(conversationId)}?agentId=${agentId}`,
    headers: who.auth,
  });
  if (response.statusCode === 404) return null;
  expect(response.statusCode).toBe(200);
  return response.json().messages.map((message: { text: string }) => message.text) as string[];
}

describe("query-agent: a conversation id belongs to its organization and agent", () => {
  it("gives two organizations using the same id each their own conversation", async () => {
    const shared = "crmchatsappai_5_6";
    const mine = await append(deskId, { query: "owner's note", conversationId: shared }, owner);
    const theirs = await append(
      strangerWidgetId,
      { query: "stranger's note", conversationId: shared },
      stranger,
    );
    for (const response of [mine, theirs]) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ conversationId: shared, visitorId: shared });
    }
    expect(await textsOf(owner, shared, deskId)).toEqual(["owner's note"]);
    expect(await textsOf(stranger, shared, strangerWidgetId)).toEqual(["stranger's note"]);
  });

  it("does the same over SSE", async () => {
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

  it("answers exactly as for an id never used anywhere", async () => {
    const used = "crmchatsappai_used_3";
    const fresh = "crmchatsappai_fresh_3";
    await append(deskId, { query: "owner's note", conversationId: used }, owner);
    const onUsed = await append(strangerWidgetId, { query: "hi", conversationId: used }, stranger);
    const onFresh = await append(
      strangerWidgetId,
      { query: "hi", conversationId: fresh },
      stranger,
    );
    expect(onUsed.statusCode).toBe(200);
    expect(onFresh.statusCode).toBe(200);
    const comparable = (body: Record<string, unknown>) => ({
      ...body,
      messageId: "…",
      conversationId: "…",
      visitorId: "…",
    });
    expect(comparable(onUsed.json())).toEqual(comparable(onFresh.json()));
  });

  it("gives another agent of the organization its own conversation with the same id", async () => {
    const shared = "crmchatsappai_11_12";
    await append(deskId, { query: "to the desk", conversationId: shared }, owner);
    const response = await append(
      widgetId,
      { query: "to the widget", conversationId: shared },
      owner,
    );
    expect(response.statusCode).toBe(200);
    expect(await textsOf(owner, shared, deskId)).toEqual(["to the desk"]);
    expect(await textsOf(owner, shared, widgetId)).toEqual(["to the widget"]);
  });
});
