import { describe, expect } from "vitest";
import { posts, waitForPosts, webhookTest } from "../webhooks/webhook-helpers.ts";

const test = webhookTest();

describe("an operator's reply in a conversational-mode conversation", () => {
  test("goes to the conversation's webhook, and the AI stays silent after it", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    const webhookUrl = `${receiver.url}/hook`;
    fake.script({ text: "Let me look that up." });
    const first = await app
      .client(org.auth)
      .agents.query(agent.id, { query: "Where is my order?", webhookUrl });
    expect(first.status).toBe(200);
    const { conversationId } = first.body;
    await waitForPosts(receiver, 1);

    const reply = await app.api.inject({
      method: "POST",
      url: `/api/conversations/${conversationId}/messages`,
      headers: org.auth,
      payload: { text: "A person here: it ships today." },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const [, operatorPost] = await waitForPosts(receiver, 2);
    expect(JSON.parse(operatorPost!.body)).toMatchObject({
      conversationId,
      status: "success",
      messages: [{ id: reply.json().id, text: "A person here: it ships today." }],
      agentResponse: {
        answer: "A person here: it ships today.",
        metadata: { operator: { id: org.apiKeyId } },
      },
    });

    const modelCalls = fake.requests.length;
    const next = await api.agents.query(agent.id, {
      query: "Thanks!",
      conversationId,
      webhookUrl,
    });
    expect(next.body).toMatchObject({ status: "queued" });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(posts(receiver)).toHaveLength(2);
    expect(fake.requests).toHaveLength(modelCalls);
  });
});
