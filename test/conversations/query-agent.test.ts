import { describe, expect } from "vitest";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";

const test = appTest({ orgName: "Owner", agent: { name: "Desk" } })
  .extend(
    "append",
    { scope: "file" },
    ({ app, org, agent }) =>
      (body: Record<string, unknown>, headers: Record<string, string> = org.auth, id = agent.id) =>
        app.api.inject({
          method: "POST",
          url: `/api/agents/${id}/query-agent`,
          headers,
          payload: body,
        }),
  )
  .extend(
    "conversation",
    { scope: "file" },
    ({ app, org }) =>
      async (id: string, who: TestOrganization = org) => {
        const response = await app.api.inject({
          url: `/api/conversations/${id}`,
          headers: who.auth,
        });
        expect(response.statusCode).toBe(200);
        return response.json();
      },
  );

let stranger: TestOrganization;
let publicAgentId: string;
test.beforeAll(async ({ app, org }) => {
  stranger = await createFundedOrganization(app, "Stranger");
  publicAgentId = (await createAgent(app, org, { name: "Widget", visibility: "public" })).id;
});

describe("query-agent", () => {
  test("appends an agent message without calling any model", async ({
    app,
    org,
    fake,
    append,
    conversation,
  }) => {
    const response = await append({ query: "Hello! How can I help?" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      messageId: expect.any(String),
      conversationId: expect.any(String),
      visitorId: expect.any(String),
      status: "UNRESOLVED",
    });
    expect(fake.requests).toHaveLength(0);
    const stored = await conversation(body.conversationId);
    expect(stored).toMatchObject({ channel: "api", visitorId: body.visitorId });
    expect(stored.messages).toEqual([
      expect.objectContaining({
        id: body.messageId,
        from: "agent",
        text: "Hello! How can I help?",
        isDraft: false,
        usage: null,
      }),
    ]);
    const events = await app.api.inject({
      url: `/api/consumption-events?conversationId=${body.conversationId}`,
      headers: org.auth,
    });
    expect(events.json().data).toEqual([]);
  });

  test("continues a conversation, and its messages become the model's history", async ({
    api,
    agent,
    fake,
    append,
  }) => {
    const first = (await api.agents.query(agent.id, { query: "Is my order late?" })).body;
    const appended = await append({
      query: "A colleague here: it ships today.",
      conversationId: first.conversationId,
    });
    expect(appended.json().conversationId).toBe(first.conversationId);
    await api.agents.query(agent.id, { query: "Thanks!", conversationId: first.conversationId });
    const messages = (fake.requests.at(-1)?.body?.messages ?? []) as Array<{
      role: string;
      content: string;
    }>;
    expect(messages.slice(-2)).toEqual([
      { role: "assistant", content: "A colleague here: it ships today." },
      { role: "user", content: "Thanks!" },
    ]);
  });

  test("lands crmchatsappai_{accountId}_{customerId} ids in the existing conversation", async ({
    api,
    agent,
    append,
    conversation,
  }) => {
    const id = "crmchatsappai_acct9_cust77";
    const first = (await append({ query: "first", conversationId: id, visitorId: id })).json();
    expect(first).toMatchObject({ conversationId: id, visitorId: id });
    const second = (await append({ query: "second", conversationId: id })).json();
    expect(second).toMatchObject({ conversationId: id, visitorId: id });
    const reply = (
      await api.agents.query(agent.id, { query: "customer writes", conversationId: id })
    ).body;
    expect(reply.conversationId).toBe(id);
    const stored = await conversation(id);
    expect(stored.channel).toBe("crmchatsappai");
    expect(stored.messages.map((m: { text: string }) => m.text).slice(0, 3)).toEqual([
      "first",
      "second",
      "customer writes",
    ]);
  });

  test("lands whatsapp messages by channelExternalId {organizationId}_{agentId}_{telephoneNumber}", async ({
    org,
    agent,
    append,
    conversation,
  }) => {
    const externalId = `${org.id}_${agent.id}_34600111222`;
    const first = (
      await append({ query: "Hola", channel: "whatsapp", channelExternalId: externalId })
    ).json();
    const second = (
      await append({ query: "¿Sigues ahí?", channel: "whatsapp", channelExternalId: externalId })
    ).json();
    expect(second.conversationId).toBe(first.conversationId);
    const stored = await conversation(first.conversationId);
    expect(stored).toMatchObject({ channel: "whatsapp", channelExternalId: externalId });
    expect(stored.messages).toHaveLength(2);

    const otherNumber = (
      await append({
        query: "Hi",
        channel: "whatsapp",
        channelExternalId: `${org.id}_${agent.id}_34600999888`,
      })
    ).json();
    expect(otherNumber.conversationId).not.toBe(first.conversationId);
  });

  test("refuses a whatsapp channelExternalId that is not this agent's pattern", async ({
    org,
    agent,
    append,
  }) => {
    for (const externalId of [
      "34600111222",
      `${org.id}_other-agent_34600111222`,
      `${org.id}_${agent.id}_not-a-phone`,
    ]) {
      const response = await append({
        query: "Hola",
        channel: "whatsapp",
        channelExternalId: externalId,
      });
      expect(response.statusCode, externalId).toBe(400);
      expect(response.json().details[0].path).toBe("body.channelExternalId");
    }
  });

  test("lets metadata.channel override the top-level channel", async ({ append, conversation }) => {
    const body = (
      await append({
        query: "hi",
        channel: "website",
        metadata: { channel: "telegram", contextDataAgents: "order 7" },
      })
    ).json();
    const stored = await conversation(body.conversationId);
    expect(stored.channel).toBe("telegram");
    expect(stored.messages[0].metadata).toMatchObject({ contextDataAgents: "order 7" });
  });

  test("stores a draft with a key; drafts stay out of the model's history", async ({
    api,
    agent,
    fake,
    append,
    conversation,
  }) => {
    const first = (await api.agents.query(agent.id, { query: "Can I change my address?" })).body;
    const draft = await append({
      query: "DRAFT: yes, send it to us",
      conversationId: first.conversationId,
      isDraft: true,
    });
    expect(draft.statusCode).toBe(200);
    const stored = await conversation(first.conversationId);
    expect(stored.messages.at(-1)).toMatchObject({ id: draft.json().messageId, isDraft: true });
    await api.agents.query(agent.id, { query: "Hello?", conversationId: first.conversationId });
    expect(JSON.stringify(fake.requests.at(-1)?.body?.messages)).not.toContain("DRAFT");
  });

  test("links an existing contact by contactId, or matches and creates one from contact", async ({
    append,
    conversation,
  }) => {
    const withContact = (
      await append({ query: "hi", contact: { email: "lin@example.com", firstName: "Lin" } })
    ).json();
    const contact = (await conversation(withContact.conversationId)).contact;
    expect(contact).toMatchObject({ email: "lin@example.com", firstName: "Lin" });
    const linked = (await append({ query: "again", contactId: contact.id })).json();
    expect((await conversation(linked.conversationId)).contact.id).toBe(contact.id);
    const matched = (
      await append({ query: "third", contact: { email: "LIN@example.com" } })
    ).json();
    expect((await conversation(matched.conversationId)).contact.id).toBe(contact.id);

    const unknown = await append({ query: "x", contactId: "no-such-contact" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([
      { path: "body.contactId", message: "is not a contact of this organization" },
    ]);
  });

  test("streams the stored message as SSE when streaming is true", async ({ app, org, agent }) => {
    const base = await app.listen("api");
    const result = await postSse(`${base}/api/agents/${agent.id}/query-agent`, org.auth, {
      query: "Streamed hello",
      streaming: true,
    });
    const { answer, response, last } = summarize(result);
    expect(answer).toBe("Streamed hello");
    expect(response).toEqual({
      messageId: expect.any(String),
      conversationId: expect.any(String),
      visitorId: expect.any(String),
      status: "UNRESOLVED",
    });
    expect(last).toBe("[DONE]");
  });
});

describe("query-agent authentication", () => {
  test("requires a key for a draft (401), even on a public agent", async ({ append }) => {
    const response = await append({ query: "draft", isDraft: true }, {}, publicAgentId);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      type: "UNAUTHORIZED",
      error: "Creating a draft requires an API key",
    });
  });

  test("requires a key for a private agent", async ({ append }) => {
    const response = await append({ query: "hi" }, {});
    expect(response.statusCode).toBe(401);
  });

  test("refuses a key that is sent but invalid", async ({ append }) => {
    const response = await append(
      { query: "hi" },
      { authorization: "Bearer adk_wrong" },
      publicAgentId,
    );
    expect(response.statusCode).toBe(401);
  });

  test("lets a public agent's widget post without a key, into its own visitor's conversation only", async ({
    append,
    conversation,
  }) => {
    const created = await append(
      { query: "Welcome!", visitorId: "widget-visitor" },
      {},
      publicAgentId,
    );
    expect(created.statusCode).toBe(200);
    const { conversationId } = created.json();
    const same = await append(
      { query: "Still there?", conversationId, visitorId: "widget-visitor" },
      {},
      publicAgentId,
    );
    expect(same.statusCode).toBe(200);
    const other = await append(
      { query: "Injected", conversationId, visitorId: "someone-else" },
      {},
      publicAgentId,
    );
    expect(other.statusCode).toBe(401);
    const noVisitor = await append({ query: "Injected", conversationId }, {}, publicAgentId);
    expect(noVisitor.statusCode).toBe(401);
    const withContact = await append(
      { query: "x", contact: { email: "a@b.co" } },
      {},
      publicAgentId,
    );
    expect(withContact.statusCode).toBe(401);
    expect(
      (await conversation(conversationId)).messages.map((m: { text: string }) => m.text),
    ).toEqual(["Welcome!", "Still there?"]);
  });

  test("answers 404 for an unknown agent, with or without a key", async ({ org, append }) => {
    expect((await append({ query: "hi" }, org.auth, "no-such-agent")).statusCode).toBe(404);
    expect((await append({ query: "hi" }, {}, "no-such-agent")).statusCode).toBe(404);
  });

  test("answers 404 for another organization's agent and never touches its conversations", async ({
    append,
    conversation,
  }) => {
    const theirs = (await append({ query: "ours" })).json();
    const response = await append(
      { query: "intrusion", conversationId: theirs.conversationId },
      stranger.auth,
    );
    expect(response.statusCode).toBe(404);
    expect(response.json().type).toBe("NOT_FOUND");
    expect((await conversation(theirs.conversationId)).messages).toHaveLength(1);
  });

  test("lands the same id on another agent in that agent's own conversation", async ({
    app,
    org,
    agent: deskAgent,
    append,
  }) => {
    const desk = (await append({ query: "desk" })).json();
    const response = await append(
      { query: "widget", conversationId: desk.conversationId },
      org.auth,
      publicAgentId,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().conversationId).toBe(desk.conversationId);
    const read = (agent: string) =>
      app.api.inject({
        url: `/api/conversations/${desk.conversationId}?agentId=${agent}`,
        headers: org.auth,
      });
    expect((await read(deskAgent.id)).json().messages.map((m: { text: string }) => m.text)).toEqual(
      ["desk"],
    );
    expect(
      (await read(publicAgentId)).json().messages.map((m: { text: string }) => m.text),
    ).toEqual(["widget"]);
  });
});

describe("query-agent bad input", () => {
  test.for([
    ["no query", {}, "body.query"],
    ["empty query", { query: "" }, "body.query"],
    ["unknown channel", { query: "hi", channel: "pigeon" }, "body.channel"],
    [
      "unknown metadata.channel",
      { query: "hi", metadata: { channel: "pigeon" } },
      "body.metadata.channel",
    ],
    ["isDraft not boolean", { query: "hi", isDraft: "yes" }, "body.isDraft"],
    ["metadata not an object", { query: "hi", metadata: "x" }, "body.metadata"],
    ["bad contact email", { query: "hi", contact: { email: "nope" } }, "body.contact.email"],
  ] as const)("%s gives 400", async ([_label, payload, path], { append }) => {
    const response = await append(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((d: { path: string }) => d.path)).toContain(path);
  });

  test("lists the valid channels", async ({ append }) => {
    const response = await append({ query: "hi", channel: "pigeon" });
    expect(response.json().error).toContain("must be one of: api, dashboard, website");
  });
});
