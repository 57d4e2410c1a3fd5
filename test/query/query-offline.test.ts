import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, createFundedOrganization, query } from "../agents/agent-helpers.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import { postSse, summarize } from "./sse-client.ts";

// No provider key at all: a fresh install. The offline responder answers from the knowledge.
let app: TestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  app = await startTestApp();
  org = await createFundedOrganization(app);
  const datastore = await createDatastore(app, org);
  const datasource = await addFile(app, org, datastore.id, {
    fileName: "warranty.txt",
    contentType: "text/plain",
    content: "The warranty covers manufacturing defects for two years from the date of purchase.",
  });
  await waitForSync(app, org, datasource.id);
  agentId = (await createAgent(app, org, { modelName: "gpt_4o", datastoreIds: [datastore.id] })).id;
});
afterAll(() => app.close());

describe("the offline responder (no provider key)", () => {
  it("quotes the best passage, says what it is, and reports honest usage at no cost", async () => {
    const response = await query(app, org, agentId, { query: "How long does the warranty last?" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.answer).toMatch(/^No language model is configured/);
    expect(body.answer).toContain("The warranty covers manufacturing defects for two years");
    expect(body.answer).toContain("OPENAI_API_KEY");
    expect(body.sources).toEqual([
      { source: "warranty.txt", chunk: expect.stringContaining("two years") },
    ]);
    expect(body.usage).toMatchObject({ cost: 0, promptTokens: expect.any(Number) });
    expect(body.usage.promptTokens).toBeGreaterThan(0);
    expect(body.usage.completionTokens).toBeGreaterThan(0);

    const stored = await app.api.inject({
      url: `/api/conversations/${body.conversationId}`,
      headers: org.auth,
    });
    expect(stored.json().messages[1].metadata.model).toMatchObject({
      provider: "local",
      providerModelId: "local-extractive",
    });
    const events = await app.api.inject({
      url: `/api/consumption-events?conversationId=${body.conversationId}`,
      headers: org.auth,
    });
    expect(events.json().data[0]).toMatchObject({
      feature: "chat",
      provider: "local",
      modelName: "local-extractive",
      creditsCharged: 0,
    });
  });

  it("streams the same kind of answer word by word", async () => {
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

  it("says plainly when nothing in the knowledge matches", async () => {
    const response = await query(app, org, agentId, { query: "Do you sell bicycles?" });
    expect(response.json().answer).toMatch(/^No language model is configured/);
    expect(response.json().answer).not.toContain("manufacturing defects");
  });
});
