import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestOrganization } from "../harness/app.ts";
import {
  createConversationalAgent,
  posts,
  startWebhookTestApp,
  type WebhookTestApp,
  waitForPosts,
} from "../webhooks/webhook-helpers.ts";

let t: WebhookTestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startWebhookTestApp();
  ({ org, agentId } = await createConversationalAgent(t.app));
});
afterAll(() => t.close());

describe("an operator's reply in a conversational-mode conversation", () => {
  test("goes to the conversation's webhook, and the AI stays silent after it", async () => {
    const webhookUrl = `${t.receiver.url}/hook`;
    t.fake.script({ text: "Let me look that up." });
    const first = await t.app
      .client(org.auth)
      .agents.query(agentId, { query: "Where is my order?", webhookUrl });
    expect(first.status).toBe(200);
    const { conversationId } = first.body;
    await waitForPosts(t.receiver, 1);

    const reply = await t.app.api.inject({
      method: "POST",
      url: `/api/conversations/${conversationId}/messages`,
      headers: org.auth,
      payload: { text: "A person here: it ships today." },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const [, operatorPost] = await waitForPosts(t.receiver, 2);
    expect(JSON.parse(operatorPost!.body)).toMatchObject({
      conversationId,
      status: "success",
      messages: [{ id: reply.json().id, text: "A person here: it ships today." }],
      agentResponse: {
        answer: "A person here: it ships today.",
        metadata: { operator: { id: org.apiKeyId } },
      },
    });

    const modelCalls = t.fake.requests.length;
    const next = await t.app.client(org.auth).agents.query(agentId, {
      query: "Thanks!",
      conversationId,
      webhookUrl,
    });
    expect(next.body).toMatchObject({ status: "queued" });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(posts(t.receiver)).toHaveLength(2);
    expect(t.fake.requests).toHaveLength(modelCalls);
  });
});
