import { describe, expect } from "vitest";
import { appTest } from "../harness/fixtures.ts";
import { postSse } from "../harness/sse-client.ts";
import { publicChat, readPublicAgent, readPublicConversation } from "./public-chat-helpers.ts";

// An agent whose answers carry everything the organization sees: comparisons, usage, model.
const test = appTest({
  agent: {
    name: "Open desk",
    visibility: "public",
    useSuperRetrieval: true,
    retrievalEvaluationConfig: {
      enableModelComparison: true,
      comparisonModels: ["gpt_41_nano", "claude_4_sonnet"],
    },
  },
});

const VISITOR = "visitor-fields-01";
const ANSWER_FIELDS = [
  "answer",
  "conversationId",
  "messageId",
  "request_human",
  "sources",
  "status",
  "visitorId",
];
const keys = (value: object) => Object.keys(value).sort();

describe("what the public endpoints tell a visitor", () => {
  test("an answer: its text, sources and ids, nothing of models, usage or costs", async ({
    app,
    agent,
    api,
    fake,
  }) => {
    fake.script({ text: "We open at nine." });
    const answered = await publicChat(app, agent.id, { query: "When?", visitorId: VISITOR });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(keys(answered.json())).toEqual(ANSWER_FIELDS);
    // The organization still sees all of it through its key.
    const keyed = await api.agents.query(agent.id, { query: "When?" });
    expect(keyed.body).toHaveProperty("usage");
    expect(keyed.body).toHaveProperty("comparisons");

    const streamed = await postSse(
      `${await app.listen("api")}/api/public/agents/${agent.id}/chat`,
      {},
      { query: "And on Sunday?", visitorId: VISITOR, streaming: true },
    );
    const response = streamed.events.find((event) => event.event === "endpoint_response");
    expect(keys(JSON.parse(response!.data))).toEqual(ANSWER_FIELDS);
  });

  test("the profile, the conversation and a rating: no tenant, no internals", async ({
    app,
    agent,
  }) => {
    expect(keys((await readPublicAgent(app, agent.id)).json())).toEqual([
      "description",
      "iconUrl",
      "id",
      "name",
    ]);
    const answered = await publicChat(app, agent.id, { query: "Hello", visitorId: VISITOR });
    const { conversationId, messageId } = answered.json();
    const conversation = await readPublicConversation(app, agent.id, conversationId, VISITOR);
    expect(keys(conversation.json())).toEqual(["conversationId", "messages"]);
    for (const message of conversation.json().messages) {
      expect(keys(message)).toEqual(["createdAt", "from", "id", "sources", "text"]);
    }
    const rated = await app.api.inject({
      method: "POST",
      url: `/api/public/agents/${agent.id}/conversations/${conversationId}/messages/${messageId}/annotation`,
      payload: { visitorId: VISITOR, sentiment: "good" },
    });
    expect(rated.statusCode, rated.body).toBe(200);
    expect(keys(rated.json())).toEqual([
      "comment",
      "conversationId",
      "createdAt",
      "id",
      "messageId",
      "sentiment",
      "updatedAt",
    ]);
  });
});
