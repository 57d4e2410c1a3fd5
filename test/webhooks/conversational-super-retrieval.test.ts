import { describe, expect } from "vitest";
import { EVALUATOR_PROMPT, helperModel, QUERY_PROMPT } from "../fakes/retrieval-helper-model.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import { conversationOf, eventually, waitForPosts, webhookTest } from "./webhook-helpers.ts";

const test = webhookTest();

test.beforeAll(async ({ app, api, org, agent }) => {
  const datastore = await createDatastore(app, org, { name: "Help centre" });
  const datasource = await addFile(app, org, datastore.id, {
    fileName: "refunds.md",
    contentType: "text/markdown",
    content: "Refunds are accepted within 30 days of delivery.",
  });
  expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
  const updated = await api.agents.update(agent.id, {
    datastoreIds: [datastore.id],
    useSuperRetrieval: true,
    retrievalEvaluationConfig: {
      generateQueryPrompt: QUERY_PROMPT,
      evaluatorPrompt: EVALUATOR_PROMPT,
      generationModelName: "gpt_41",
      fallbackModels: ["gpt_4o"],
    },
  });
  expect(updated.status).toBe(200);
});

describe("super retrieval in conversational mode", () => {
  test("answers through the fallback, records it with the message, and charges every call", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    fake.setDefaultChat(
      helperModel({
        queries: () => ["refunds within 30 days"],
        score: () => 1,
        answer: (request) =>
          request.body?.model === "gpt-4.1" ? { status: 400 } : { text: "Within 30 days." },
      }),
    );
    const queued = await api.agents.query(agent.id, {
      query: "Can I get my money back?",
      webhookUrl: `${receiver.url}/hook`,
    });
    expect(queued.status).toBe(200);
    const [delivery] = await waitForPosts(receiver, 1);
    expect(JSON.parse(delivery!.body)).toMatchObject({
      agentResponse: { answer: "Within 30 days.", metadata: { model: "gpt_4o" } },
    });
    const { conversationId } = queued.body;
    const conversation = await conversationOf(app, org, conversationId);
    const answer = conversation.messages.find((message) => message.from === "agent");
    expect(answer?.metadata).toMatchObject({
      model: { modelName: "gpt_4o" },
      failedModels: [{ model: "gpt_41" }],
      superRetrieval: { rounds: 1, kept: 1 },
    });
    const features = await eventually(async () => {
      const events = await api.consumptionEvents.list({ conversationId });
      const found = events.body.data.map((event) => event.feature).sort();
      expect(found).toEqual(["chat", "super_retrieval", "super_retrieval"]);
      return found;
    });
    expect(features).toHaveLength(3);
  });
});
