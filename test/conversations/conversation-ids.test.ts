import { parse } from "csv-parse/sync";
import { describe, expect } from "vitest";
import { writerPrompt } from "../follow-ups/follow-up-helpers.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

// Every endpoint that shows or filters by conversationId, when one organization uses an id on two
// agents, another organization uses it too, and a third never did.
const SHARED = "crmchatsappai_5_6";
const NEVER_USED = "crmchatsappai_never_used";

const test = appTest({ orgName: "Acme", agent: { name: "Acme desk" } });

let globex: TestOrganization;
let initech: TestOrganization;
let salesAgent: string;
let supportAgent: string;
let initechAgent: string;
let salesAnswer: string;
test.beforeAll(async ({ app, org: acme, agent: acmeAgent }) => {
  globex = await createFundedOrganization(app, "Globex");
  initech = await createFundedOrganization(app, "Initech");
  salesAgent = (await createAgent(app, globex, { name: "Sales" })).id;
  supportAgent = (await createAgent(app, globex, { name: "Support" })).id;
  initechAgent = (await createAgent(app, initech, { name: "Initech desk" })).id;
  const ask = async (who: TestOrganization, agentId: string, text: string) => {
    const response = await app
      .client(who.auth)
      .agents.query(agentId, { query: text, conversationId: SHARED });
    expect(response.status).toBe(200);
    return response.body.messageId;
  };
  await ask(acme, acmeAgent.id, "acme asks");
  salesAnswer = await ask(globex, salesAgent, "globex asks sales");
  await ask(globex, supportAgent, "globex asks support");
});

const get = (app: TestApp, who: TestOrganization, url: string) =>
  app.api.inject({ url, headers: who.auth });

const textsOf = (body: { messages: Array<{ text: string }> }) =>
  body.messages.map((message) => message.text);

function csvRows(body: string) {
  return (parse(body) as string[][]).slice(1).map(([conversationId, from, text]) => ({
    conversationId,
    from,
    text,
  }));
}

/** A response without its request id, which differs on every request. */
function withoutRequestId(response: { statusCode: number; json(): Record<string, unknown> }) {
  const { requestId: _requestId, ...body } = response.json();
  return { status: response.statusCode, body };
}

describe("one organization, the same id on two agents", () => {
  test("reads each agent's conversation with agentId, and asks for it when the id is ambiguous", async ({
    app,
  }) => {
    const sales = await get(app, globex, `/api/conversations/${SHARED}?agentId=${salesAgent}`);
    expect(sales.statusCode).toBe(200);
    expect(sales.json()).toMatchObject({ id: SHARED, agentId: salesAgent });
    expect(textsOf(sales.json())).toEqual(["globex asks sales", "Answer: globex asks sales"]);
    const support = await get(app, globex, `/api/conversations/${SHARED}?agentId=${supportAgent}`);
    expect(textsOf(support.json())).toEqual(["globex asks support", "Answer: globex asks support"]);

    const ambiguous = await get(app, globex, `/api/conversations/${SHARED}`);
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json()).toMatchObject({
      type: "INVALID_REQUEST",
      details: [{ path: "querystring.agentId" }],
    });
    const deliveries = await get(app, globex, `/api/conversations/${SHARED}/webhook-deliveries`);
    expect(deliveries.statusCode).toBe(400);
    const salesDeliveries = await get(
      app,
      globex,
      `/api/conversations/${SHARED}/webhook-deliveries?agentId=${salesAgent}`,
    );
    expect(salesDeliveries.json()).toEqual({ data: [] });
  });

  test("lists both under the id the client used", async ({ app }) => {
    const listed = (await get(app, globex, "/api/conversations")).json().data as Array<{
      id: string;
      agentId: string;
    }>;
    expect(listed.map(({ id, agentId }) => ({ id, agentId }))).toEqual(
      expect.arrayContaining([
        { id: SHARED, agentId: salesAgent },
        { id: SHARED, agentId: supportAgent },
      ]),
    );
  });

  test("exports each agent's own messages under the id", async ({ app }) => {
    const exported = await get(
      app,
      globex,
      `/api/agents/${salesAgent}/conversations-export?conversationId=${SHARED}`,
    );
    expect(exported.statusCode).toBe(200);
    expect(csvRows(exported.body)).toEqual([
      { conversationId: SHARED, from: "human", text: "globex asks sales" },
      { conversationId: SHARED, from: "agent", text: "Answer: globex asks sales" },
    ]);
  });

  test("meters both under the id, told apart by agentId", async ({ app }) => {
    const events = (
      await get(app, globex, `/api/consumption-events?conversationId=${SHARED}`)
    ).json().data as Array<{ conversationId: string; agentId: string }>;
    expect(events.map(({ conversationId, agentId }) => ({ conversationId, agentId }))).toEqual(
      expect.arrayContaining([
        { conversationId: SHARED, agentId: salesAgent },
        { conversationId: SHARED, agentId: supportAgent },
      ]),
    );
    expect(events).toHaveLength(2);
    const ofSales = await get(
      app,
      globex,
      `/api/consumption-events?conversationId=${SHARED}&agentId=${salesAgent}`,
    );
    expect(ofSales.json().data).toHaveLength(1);
  });

  test("annotates under the id, and filters annotations by it", async ({ app, org: acme }) => {
    const created = await app.api.inject({
      method: "POST",
      url: "/api/annotations",
      headers: globex.auth,
      payload: { messageId: salesAnswer, sentiment: "good", comment: "Right answer" },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ conversationId: SHARED, agentId: salesAgent });
    const listed = (await get(app, globex, `/api/annotations?conversationId=${SHARED}`)).json();
    expect(listed.map((annotation: { id: string }) => annotation.id)).toEqual([created.json().id]);
    expect(listed[0].conversationId).toBe(SHARED);
    const detail = (await get(app, globex, `/api/annotations/${created.json().id}`)).json();
    expect(detail.conversation).toMatchObject({ id: SHARED, agentId: salesAgent });
    expect(detail.conversation.messages.map((m: { content: string }) => m.content)).toEqual([
      "globex asks sales",
      "Answer: globex asks sales",
    ]);
    const acmeList = await get(app, acme, `/api/annotations?conversationId=${SHARED}`);
    expect(acmeList.statusCode).toBe(200);
    expect(acmeList.json()).toEqual([]);
  });

  test("follows up on the agent's own conversation with that id", async ({ app, fake }) => {
    const response = await app.api.inject({
      method: "POST",
      url: `/api/agents/${supportAgent}/follow-up/query`,
      headers: globex.auth,
      payload: { conversationId: SHARED, prompt: "Check in kindly.", skipFilter: true },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().conversationId).toBe(SHARED);
    const prompt = writerPrompt(fake.requests);
    expect(prompt).toContain("globex asks support");
    expect(prompt).not.toContain("globex asks sales");
    expect(prompt).not.toContain("acme asks");
  });
});

describe("another organization's use of an id", () => {
  test("leaves the organization's own conversation with that id as it was", async ({
    app,
    org: acme,
    agent: acmeAgent,
  }) => {
    const response = await get(app, acme, `/api/conversations/${SHARED}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: SHARED, agentId: acmeAgent.id });
    expect(textsOf(response.json())).toEqual(["acme asks", "Answer: acme asks"]);
    const events = (await get(app, acme, `/api/consumption-events?conversationId=${SHARED}`)).json()
      .data;
    expect(events.map((event: { agentId: string }) => event.agentId)).toEqual([acmeAgent.id]);
  });

  test.for([
    ["the conversation", (id: string) => `/api/conversations/${id}`],
    ["its webhook deliveries", (id: string) => `/api/conversations/${id}/webhook-deliveries`],
    ["annotations filtered by it", (id: string) => `/api/annotations?conversationId=${id}`],
    [
      "consumption events filtered by it",
      (id: string) => `/api/consumption-events?conversationId=${id}`,
    ],
  ] as const)(
    "is not revealed by %s: the same answer as for an id never used",
    async ([_label, url], { app }) => {
      const used = await get(app, initech, url(SHARED));
      const never = await get(app, initech, url(NEVER_USED));
      expect(withoutRequestId(used)).toEqual(withoutRequestId(never));
      expect(used.body).not.toContain("asks");
    },
  );

  test("is not revealed by the export", async ({ app }) => {
    const exportOf = (id: string) =>
      get(app, initech, `/api/agents/${initechAgent}/conversations-export?conversationId=${id}`);
    const used = await exportOf(SHARED);
    const never = await exportOf(NEVER_USED);
    expect(used.statusCode).toBe(200);
    expect(used.body).toBe(never.body);
    expect(csvRows(used.body)).toEqual([]);
  });

  test("is not revealed by the follow-up agent", async ({ app, fake }) => {
    const followUpOn = (id: string) =>
      app.api.inject({
        method: "POST",
        url: `/api/agents/${initechAgent}/follow-up/query`,
        headers: initech.auth,
        payload: { conversationId: id, prompt: "Check in.", skipFilter: true },
      });
    const used = await followUpOn(SHARED);
    expect(used.statusCode).toBe(404);
    expect(withoutRequestId(used)).toEqual(withoutRequestId(await followUpOn(NEVER_USED)));
    expect(fake.requests).toHaveLength(0);
  });
});
