import OpenAI from "openai";
import { afterAll, describe, expect } from "vitest";
import { type FakeWebSite, htmlPage, startFakeWebSite } from "../fakes/web-site.ts";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";

const test = appTest();

const REFUNDS =
  "# Refund policy\n\nRefunds are accepted within 30 days of delivery, to the original payment method.";
const SHIPPING_PAGE = htmlPage(
  "Shipping",
  "<h1>Shipping</h1><p>Refunds of shipping costs: parcels leave Rotterdam every weekday; refunds of express delivery take 30 days.</p>",
);

let knowledgeAgentId: string;
let fileDatasourceId: string;
let pageUrl: string;
let web: FakeWebSite | undefined;
afterAll(() => web?.close());
test.beforeAll(async ({ app, org }) => {
  web = await startFakeWebSite({ "/shipping": SHIPPING_PAGE });
  pageUrl = `${web.base}/shipping`;
  const datastoreId = (await createDatastore(app, org, { name: "Help centre" })).id;
  const file = await addFile(app, org, datastoreId, {
    fileName: "refunds.md",
    contentType: "text/markdown",
    content: REFUNDS,
  });
  fileDatasourceId = file.id;
  const page = await app.client(org.auth).datasources.create({
    datastoreId,
    type: "web_page",
    name: "Shipping page",
    config: { source_url: pageUrl },
  });
  expect(page.status).toBe(201);
  for (const id of [file.id, page.body.id]) {
    expect((await waitForSync(app, org, id)).status).toBe("synched");
  }
  knowledgeAgentId = (await createAgent(app, org, { name: "Help", datastoreIds: [datastoreId] }))
    .id;
});

const clientOf = async (app: { listen(which: "api"): Promise<string> }, apiKey: string) =>
  new OpenAI({ baseURL: `${await app.listen("api")}/v1`, apiKey, maxRetries: 0 });

type SentMessage = { role: string; content: string };
const sentMessages = (body: Record<string, unknown> | undefined) =>
  (body?.messages ?? []) as SentMessage[];

type Extension = { agentdesk: { conversationId: string; messageId: string; cost: number } };

describe("POST /v1/responses", () => {
  test("answers with an output_text message, usage and the query's charge", async ({
    app,
    org,
    api,
    fake,
    agent,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    fake.script({ text: "Within 30 days.", usage: { promptTokens: 90, completionTokens: 4 } });
    const response = await openai.responses.create({
      model: agent.id,
      input: "How long do refunds take?",
      instructions: "Answer briefly.",
    });
    const { agentdesk } = response as unknown as Extension;
    expect(response).toMatchObject({
      id: `resp_${agentdesk.messageId}`,
      object: "response",
      status: "completed",
      model: agent.id,
      instructions: "Answer briefly.",
      output: [
        {
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Within 30 days.", annotations: [] }],
        },
      ],
      usage: { input_tokens: 90, output_tokens: 4, total_tokens: 94 },
    });
    expect(response.output_text).toBe("Within 30 days.");
    const system = sentMessages(fake.requests[0]?.body)[0]?.content;
    expect(system).toContain("Instructions from the organization:\nAnswer briefly.");

    const events = await api.consumptionEvents.list({ conversationId: agentdesk.conversationId });
    expect(events.body.data).toEqual([
      expect.objectContaining({
        inputTokens: 90,
        outputTokens: 4,
        messageId: agentdesk.messageId,
        creditsCharged: agentdesk.cost,
      }),
    ]);
  });

  test("continues the conversation of previous_response_id with its stored history", async ({
    app,
    org,
    api,
    fake,
    agent,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    const first = await openai.responses.create({ model: agent.id, input: "Order 7 ships when?" });
    fake.requests.length = 0;
    const second = await openai.responses.create({
      model: agent.id,
      input: [{ role: "user", content: [{ type: "input_text", text: "And order 8?" }] }],
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    const conversationId = (first as unknown as Extension).agentdesk.conversationId;
    expect((second as unknown as Extension).agentdesk.conversationId).toBe(conversationId);
    expect(sentMessages(fake.requests[0]?.body).slice(1)).toEqual([
      { role: "user", content: "Order 7 ships when?" },
      { role: "assistant", content: "Answer: Order 7 ships when?" },
      { role: "user", content: "And order 8?" },
    ]);
    const stored = await api.conversations.get(conversationId);
    expect(stored.body.messages).toHaveLength(4);
  });

  test("gives the sources as file_citation and url_citation annotations", async ({
    app,
    org,
    fake,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    fake.script(({ body }) => {
      const system = sentMessages(body)[0]?.content ?? "";
      const fileIndex = /<passage index="(\d+)" source="refunds\.md"/.exec(system)?.[1];
      return { text: `Refunds take 30 days [${fileIndex}].` };
    });
    const response = await openai.responses.create({
      model: knowledgeAgentId,
      input: "How many days do refunds take?",
    });
    const text = response.output_text;
    const marker = text.indexOf("[");
    const content = response.output[0]?.type === "message" ? response.output[0].content[0] : null;
    const annotations = content?.type === "output_text" ? content.annotations : [];
    expect(annotations).toEqual(
      expect.arrayContaining([
        {
          type: "file_citation",
          file_id: fileDatasourceId,
          filename: "refunds.md",
          index: text.indexOf("]") + 1,
          start_index: marker,
          end_index: text.indexOf("]") + 1,
        },
        {
          type: "url_citation",
          url: pageUrl,
          title: "Shipping page",
          start_index: text.length,
          end_index: text.length,
        },
      ]),
    );
    expect(annotations).toHaveLength(2);
  });

  test("streams the typed events from response.created to response.completed", async ({
    app,
    org,
    fake,
    agent,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    fake.script({ chunks: ["It ", "ships ", "Monday."] });
    const stream = await openai.responses.create({
      model: agent.id,
      input: "When does it ship?",
      stream: true,
    });
    const events = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(types).toEqual(
      expect.arrayContaining([
        "response.output_item.added",
        "response.output_text.delta",
        "response.output_text.done",
        "response.output_item.done",
      ]),
    );
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const deltas = events.flatMap((event) =>
      event.type === "response.output_text.delta" ? [event.delta] : [],
    );
    expect(deltas.join("")).toBe("It ships Monday.");
    const created = events[0];
    const completed = events.at(-1);
    if (created?.type !== "response.created" || completed?.type !== "response.completed") {
      throw new Error("unexpected first or last event");
    }
    expect(created.response).toMatchObject({ status: "in_progress", output: [] });
    expect(completed.response.id).toBe(created.response.id);
    expect(completed.response).toMatchObject({
      status: "completed",
      output: [{ content: [{ type: "output_text", text: "It ships Monday." }] }],
    });

    // The streamed response's id continues its conversation too.
    fake.requests.length = 0;
    await openai.responses.create({
      model: agent.id,
      input: "Thanks",
      previous_response_id: completed.response.id,
    });
    expect(
      sentMessages(fake.requests[0]?.body)
        .map((message) => message.content)
        .slice(1),
    ).toEqual(["When does it ship?", "It ships Monday.", "Thanks"]);
  });
});
