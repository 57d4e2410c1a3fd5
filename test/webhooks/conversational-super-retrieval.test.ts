import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EVALUATOR_PROMPT, helperModel, QUERY_PROMPT } from "../fakes/retrieval-helper-model.ts";
import type { TestOrganization } from "../harness/app.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import {
  conversationOf,
  createConversationalAgent,
  eventually,
  startWebhookTestApp,
  type WebhookTestApp,
  waitForPosts,
} from "./webhook-helpers.ts";

let t: WebhookTestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startWebhookTestApp();
  ({ org, agentId } = await createConversationalAgent(t.app));
  const datastore = await createDatastore(t.app, org, { name: "Help centre" });
  const datasource = await addFile(t.app, org, datastore.id, {
    fileName: "refunds.md",
    contentType: "text/markdown",
    content: "Refunds are accepted within 30 days of delivery.",
  });
  expect((await waitForSync(t.app, org, datasource.id)).status).toBe("synched");
  const updated = await t.app.client(org.auth).agents.update(agentId, {
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
afterAll(() => t.close());

describe("super retrieval in conversational mode", () => {
  test("answers through the fallback, records it with the message, and charges every call", async () => {
    t.fake.setDefaultChat(
      helperModel({
        queries: () => ["refunds within 30 days"],
        score: () => 1,
        answer: (request) =>
          request.body?.model === "gpt-4.1" ? { status: 400 } : { text: "Within 30 days." },
      }),
    );
    const queued = await t.app.client(org.auth).agents.query(agentId, {
      query: "Can I get my money back?",
      webhookUrl: `${t.receiver.url}/hook`,
    });
    expect(queued.status).toBe(200);
    const [delivery] = await waitForPosts(t.receiver, 1);
    expect(JSON.parse(delivery!.body)).toMatchObject({
      agentResponse: { answer: "Within 30 days.", metadata: { model: "gpt_4o" } },
    });
    const { conversationId } = queued.body;
    const conversation = await conversationOf(t.app, org, conversationId);
    const answer = conversation.messages.find((message) => message.from === "agent");
    expect(answer?.metadata).toMatchObject({
      model: { modelName: "gpt_4o" },
      failedModels: [{ model: "gpt_41" }],
      superRetrieval: { rounds: 1, kept: 1 },
    });
    const features = await eventually(async () => {
      const events = await t.app.client(org.auth).consumptionEvents.list({ conversationId });
      const found = events.body.data.map((event) => event.feature).sort();
      expect(found).toEqual(["chat", "super_retrieval", "super_retrieval"]);
      return found;
    });
    expect(features).toHaveLength(3);
  });
});
