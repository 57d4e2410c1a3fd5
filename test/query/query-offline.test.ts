import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";

// No provider key at all: a fresh install. The offline responder answers from the knowledge.
const test = appTest({ offline: true });

let agentId: string;
test.beforeAll(async ({ app, org }) => {
  const datastore = await createDatastore(app, org);
  const datasource = await addFile(app, org, datastore.id, {
    fileName: "warranty.txt",
    contentType: "text/plain",
    content: "The warranty covers manufacturing defects for two years from the date of purchase.",
  });
  await waitForSync(app, org, datasource.id);
  agentId = (await createAgent(app, org, { modelName: "gpt_4o", datastoreIds: [datastore.id] })).id;
});

describe("the offline responder (no provider key)", () => {
  test("quotes the best passage, says what it is, and reports honest usage at no cost", async ({
    api,
  }) => {
    const response = await api.agents.query(agentId, { query: "How long does the warranty last?" });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.answer).toMatch(/^No language model is configured/);
    expect(body.answer).toContain("The warranty covers manufacturing defects for two years");
    expect(body.answer).toContain("OPENAI_API_KEY");
    expect(body.sources).toEqual([
      { source: "warranty.txt", chunk: expect.stringContaining("two years") },
    ]);
    expect(body.usage).toMatchObject({ cost: 0, promptTokens: expect.any(Number) });
    expect(body.usage.promptTokens).toBeGreaterThan(0);
    expect(body.usage.completionTokens).toBeGreaterThan(0);

    const stored = await api.conversations.get(body.conversationId);
    expect(stored.body.messages[1].metadata.model).toMatchObject({
      provider: "local",
      providerModelId: "local-extractive",
    });
    const events = await api.consumptionEvents.list({ conversationId: body.conversationId });
    expect(events.body.data[0]).toMatchObject({
      feature: "chat",
      provider: "local",
      modelName: "local-extractive",
      creditsCharged: 0,
    });
  });

  test("streams the same kind of answer word by word", async ({ app, org }) => {
    const base = await app.listen("api");
    const result = await postSse(`${base}/api/agents/${agentId}/query`, org.auth, {
      query: "warranty for defects?",
      streaming: true,
    });
    const { answer, response, last } = summarize(result);
    expect(result.events.filter((event) => event.event === "answer").length).toBeGreaterThan(5);
    expect(answer).toBe(response?.answer);
    expect(answer).toContain("two years");
    expect(last).toBe("[DONE]");
  });

  test("says plainly when nothing in the knowledge matches", async ({ api }) => {
    const response = await api.agents.query(agentId, { query: "Do you sell bicycles?" });
    expect(response.body.answer).toMatch(/^No language model is configured/);
    expect(response.body.answer).not.toContain("manufacturing defects");
  });
});

describe("the offline responder on the README's walkthrough", () => {
  test("quotes the opening hours for a question worded differently from the passage", async ({
    app,
    api,
    org,
  }) => {
    const datastore = await createDatastore(app, org, { name: "Help centre" });
    const datasource = await addFile(app, org, datastore.id, {
      fileName: "hours.txt",
      contentType: "text/plain",
      content: "We are open Monday to Friday, 9:00 to 17:00.\n",
    });
    expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
    const agent = await createAgent(app, org, { name: "Desk", datastoreIds: [datastore.id] });
    const response = await api.agents.query(agent.id, { query: "What are your opening hours?" });
    expect(response.status).toBe(200);
    expect(response.body.sources).toEqual([
      { source: "hours.txt", chunk: expect.stringContaining("Monday to Friday") },
    ]);
    expect(response.body.answer).toContain("We are open Monday to Friday, 9:00 to 17:00.");
    expect(response.body.answer).not.toContain("none of the knowledge");
  });

  test("quotes only the matching sentences of a long passage", async ({ app, api, org }) => {
    const filler = Array.from(
      { length: 12 },
      (_, index) => `Our catalogue lists item number ${index + 1} with its colour and size.`,
    );
    const datastore = await createDatastore(app, org, { name: "Policies" });
    const datasource = await addFile(app, org, datastore.id, {
      fileName: "policies.txt",
      contentType: "text/plain",
      content: [...filler, "Deliveries to islands take ten working days."].join(" "),
    });
    expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
    const agent = await createAgent(app, org, { name: "Islands", datastoreIds: [datastore.id] });
    const response = await api.agents.query(agent.id, {
      query: "How long do deliveries to islands take?",
    });
    expect(response.body.answer).toContain("Deliveries to islands take ten working days.");
    expect(response.body.answer).not.toContain("item number 3");
  });
});

describe("the offline responder's sources", () => {
  test("are the passages it quoted, in the answer, the stream and the stored message", async ({
    app,
    api,
    org,
  }) => {
    const datastore = await createDatastore(app, org, { name: "Shop" });
    const files = [
      { fileName: "hours.txt", content: "We are open Monday to Friday, 9:00 to 17:00.\n" },
      {
        fileName: "faq.html",
        content:
          "<html><body><h1>Questions</h1><p>Parcels are delivered within three working days.</p></body></html>",
      },
    ];
    for (const file of files) {
      const datasource = await addFile(app, org, datastore.id, {
        ...file,
        contentType: file.fileName.endsWith(".html") ? "text/html" : "text/plain",
      });
      expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
    }
    const agent = await createAgent(app, org, { name: "Parcels", datastoreIds: [datastore.id] });
    const question = "How many working days until parcels are delivered, from Monday?";
    const quotedOnly = [{ source: "faq.html", chunk: expect.stringContaining("three working") }];

    const response = await api.agents.query(agent.id, { query: question });
    expect(response.status).toBe(200);
    expect(response.body.answer).toContain("[1] faq.html");
    expect(response.body.answer).not.toContain("hours.txt");
    expect(response.body.sources).toEqual(quotedOnly);
    const stored = await api.conversations.get(response.body.conversationId);
    expect(stored.body.messages[1].sources).toEqual([
      expect.objectContaining({ source: "faq.html", datasourceName: "faq.html" }),
    ]);

    const base = await app.listen("api");
    const streamed = summarize(
      await postSse(`${base}/api/agents/${agent.id}/query`, org.auth, {
        query: question,
        streaming: true,
      }),
    );
    expect(streamed.response?.sources).toEqual(quotedOnly);
  });
});
