import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import type { TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { wavFile } from "../transcription/audio-builders.ts";
import { multipartBody } from "../transcription/transcription-helpers.ts";
import { publicChat } from "./public-chat-helpers.ts";

const test = appTest({ agent: { name: "Shop help", visibility: "public" } });

const VISITOR = "visitor-widget-calls";
const STRANGER = "visitor-stranger-9";

type Answer = { conversationId: string; messageId: string };

function annotate(
  app: TestApp,
  path: { agentId: string; conversationId: string; messageId: string },
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return app.api.inject({
    method: "POST",
    url: `/api/public/agents/${path.agentId}/conversations/${path.conversationId}/messages/${path.messageId}/annotation`,
    headers,
    payload: body,
  });
}

async function transcribePublic(
  app: TestApp,
  agentId: string,
  headers: Record<string, string> = {},
) {
  const { payload, headers: formHeaders } = await multipartBody([
    ["file", { bytes: wavFile({ seconds: 2 }) }],
  ]);
  return app.api.inject({
    method: "POST",
    url: `/api/public/agents/${agentId}/transcribe-audio`,
    headers: { ...formHeaders, ...headers },
    payload,
  });
}

describe("a visitor's verdict on an answer", () => {
  test("creates the spec's annotation, visible through the API", async ({
    app,
    api,
    agent,
    fake,
  }) => {
    fake.script({ text: "Orders ship within two days." });
    const asked = await publicChat(app, agent.id, {
      query: "When do you ship?",
      visitorId: VISITOR,
    });
    const answer = asked.json() as Answer;
    const ids = { agentId: agent.id, ...answer };

    const marked = await annotate(app, ids, { visitorId: VISITOR, sentiment: "good" });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ sentiment: "good", comment: "Helpful (site visitor)" });

    const changed = await annotate(app, ids, {
      visitorId: VISITOR,
      sentiment: "bad",
      comment: "It took a week.",
    });
    expect(changed.statusCode).toBe(200);
    const listed = await api.annotations.list({ agentId: agent.id });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain("It took a week.");
  });

  test("is refused on another visitor's conversation, a question, or an unknown message", async ({
    app,
    agent,
    fake,
  }) => {
    fake.script({ text: "Yes." });
    const asked = await publicChat(app, agent.id, { query: "Open today?", visitorId: VISITOR });
    const answer = asked.json() as Answer;
    const ids = { agentId: agent.id, ...answer };

    const foreign = await annotate(app, ids, { visitorId: STRANGER, sentiment: "good" });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().type).toBe("CONVERSATION_NOT_FOUND");

    const unknown = await annotate(
      app,
      { ...ids, messageId: "no-such-message" },
      { visitorId: VISITOR, sentiment: "good" },
    );
    expect(unknown.statusCode).toBe(404);

    const conversation = await app.api.inject({
      method: "GET",
      url: `/api/public/agents/${agent.id}/conversations/${answer.conversationId}`,
      query: { visitorId: VISITOR },
    });
    const question = conversation.json().messages.find((m: { from: string }) => m.from === "human");
    const onQuestion = await annotate(
      app,
      { ...ids, messageId: question.id },
      { visitorId: VISITOR, sentiment: "good" },
    );
    expect(onQuestion.statusCode).toBe(404);

    const badInput = await annotate(app, ids, {
      visitorId: VISITOR,
      sentiment: "great",
      tagIds: ["t"],
    });
    expect(badInput.statusCode).toBe(400);
  });

  test("follows the agent's allowedOrigins", async ({ app, org, fake }) => {
    const agent = await createAgent(app, org, {
      name: "Listed",
      visibility: "public",
      allowedOrigins: ["https://shop.example.com"],
    });
    fake.script({ text: "Hello." });
    const asked = await publicChat(
      app,
      agent.id,
      { query: "Hi", visitorId: VISITOR },
      { headers: { origin: "https://shop.example.com" } },
    );
    const ids = { agentId: agent.id, ...(asked.json() as Answer) };
    const refused = await annotate(
      app,
      ids,
      { visitorId: VISITOR, sentiment: "good" },
      { origin: "https://evil.example.net" },
    );
    expect(refused.statusCode).toBe(403);
    const allowed = await annotate(
      app,
      ids,
      { visitorId: VISITOR, sentiment: "good" },
      { origin: "https://shop.example.com" },
    );
    expect(allowed.statusCode).toBe(200);
  });
});

describe("a visitor's voice message", () => {
  test("is transcribed for the agent of the path", async ({ app, agent, fake }) => {
    fake.scriptTranscription({ text: "Where is my parcel?" });
    const response = await transcribePublic(app, agent.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ text: "Where is my parcel?" });
  });

  test("is refused for a private agent and from an origin outside allowedOrigins", async ({
    app,
    org,
    fake,
  }) => {
    const hidden = await createAgent(app, org, { name: "Hidden", visibility: "private" });
    const privateResponse = await transcribePublic(app, hidden.id);
    expect(privateResponse.statusCode).toBe(404);

    const listed = await createAgent(app, org, {
      name: "Voice listed",
      visibility: "public",
      allowedOrigins: ["https://shop.example.com"],
    });
    const refused = await transcribePublic(app, listed.id, { origin: "https://evil.example.net" });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
    expect(fake.requests.some((request) => request.path === "/v1/audio/transcriptions")).toBe(
      false,
    );
  });
});
