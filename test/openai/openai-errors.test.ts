import OpenAI, { APIError, AuthenticationError, BadRequestError, NotFoundError } from "openai";
import { describe, expect } from "vitest";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ orgName: "Owner" });

let stranger: TestOrganization;
let strangerAgentId: string;
test.beforeAll(async ({ app }) => {
  stranger = await createFundedOrganization(app, "Stranger");
  strangerAgentId = (await createAgent(app, stranger, { name: "Theirs", handle: "theirs" })).id;
});

const clientOf = async (app: TestApp, apiKey: string) =>
  new OpenAI({ baseURL: `${await app.listen("api")}/v1`, apiKey, maxRetries: 0 });

/** What the SDK threw, to assert on its class and OpenAI's error fields. */
async function failure(call: () => Promise<unknown>): Promise<APIError> {
  const error = await call().then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof APIError)) throw new Error(`expected an APIError, got ${String(error)}`);
  return error;
}

/** A raw request to /v1, for bodies the SDK would not send. */
async function post(app: TestApp, org: TestOrganization, path: string, body: unknown) {
  const response = await fetch(`${await app.listen("api")}/v1${path}`, {
    method: "POST",
    headers: { ...org.auth, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("authentication", () => {
  test("a bad key is an AuthenticationError (401, invalid_api_key) on every endpoint", async ({
    app,
    agent,
  }) => {
    const openai = await clientOf(app, "adk_not-a-key");
    const calls = [
      () => openai.models.list(),
      () => openai.models.retrieve(agent.id),
      () =>
        openai.chat.completions.create({
          model: agent.id,
          messages: [{ role: "user", content: "hi" }],
        }),
      () => openai.responses.create({ model: agent.id, input: "hi" }),
    ];
    for (const call of calls) {
      const error = await failure(call);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.error).toEqual({
        message: expect.stringContaining("API key"),
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      });
    }
  });
});

describe("organization scoping", () => {
  test("another organization's agent is model_not_found, by id or handle", async ({
    app,
    org,
    fake,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    const models = [];
    for await (const model of openai.models.list()) models.push(model.id);
    expect(models).not.toContain(strangerAgentId);
    for (const model of [strangerAgentId, "theirs", "no-such-agent"]) {
      for (const call of [
        () => openai.models.retrieve(model),
        () =>
          openai.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] }),
        () => openai.responses.create({ model, input: "hi", stream: true }),
      ]) {
        const error = await failure(call);
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error.error).toEqual({
          message: `The model '${model}' does not exist or you do not have access to it.`,
          type: "invalid_request_error",
          param: "model",
          code: "model_not_found",
        });
      }
    }
    expect(fake.requests).toHaveLength(0);
  });

  test("another organization's response id or conversation id reveals nothing", async ({
    app,
    org,
    fake,
    agent,
  }) => {
    const theirs = await clientOf(app, stranger.apiKey);
    const secret = await theirs.responses.create({ model: strangerAgentId, input: "my secret" });
    const conversationId = (secret as unknown as { agentdesk: { conversationId: string } })
      .agentdesk.conversationId;

    const openai = await clientOf(app, org.apiKey);
    for (const previous of [secret.id, "resp_unknown", "not-a-response-id"]) {
      const error = await failure(() =>
        openai.responses.create({ model: agent.id, input: "hi", previous_response_id: previous }),
      );
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.error).toMatchObject({
        param: "previous_response_id",
        code: "previous_response_not_found",
      });
    }

    fake.requests.length = 0;
    const mine = await openai.chat.completions.create({
      model: agent.id,
      messages: [{ role: "user", content: "hello" }],
      metadata: { conversation_id: conversationId },
    });
    expect(JSON.stringify(fake.requests[0]?.body)).not.toContain("my secret");
    expect(mine.choices[0]?.message.content).toBe("Answer: hello");
    const theirsStored = await app.client(stranger.auth).conversations.get(conversationId);
    expect(theirsStored.body.messages).toHaveLength(2);
  });
});

describe("usage limits", () => {
  test("an organization without credits gets 402 insufficient_quota, the model is not called", async ({
    app,
    fake,
  }) => {
    const free = await app.createOrganization("Free plan");
    const agent = await createAgent(app, free);
    for (let index = 0; index < 5; index += 1) {
      expect(
        (await app.client(free.auth).agents.query(agent.id, { query: `q${index}` })).status,
      ).toBe(200);
    }
    fake.requests.length = 0;
    const openai = await clientOf(app, free.apiKey);
    for (const call of [
      () =>
        openai.chat.completions.create({
          model: agent.id,
          messages: [{ role: "user", content: "hi" }],
        }),
      () =>
        openai.chat.completions.create({
          model: agent.id,
          messages: [{ role: "user", content: "hi" }],
          stream: true,
        }),
      () => openai.responses.create({ model: agent.id, input: "hi" }),
    ]) {
      const error = await failure(call);
      expect(error.status).toBe(402);
      expect(error.error).toEqual({
        message: expect.stringContaining("free plan"),
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      });
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe("provider failures", () => {
  test("a failing model is a 500 server_error; after the first token, an error in the stream", async ({
    app,
    org,
    fake,
    agent,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    fake.script({ status: 400, errorMessage: "rejected for key sk-live-123" });
    const error = await failure(() =>
      openai.chat.completions.create({
        model: agent.id,
        messages: [{ role: "user", content: "hi" }],
      }),
    );
    expect(error.status).toBe(500);
    expect(error.error).toMatchObject({ type: "server_error", code: null });
    expect(JSON.stringify(error.error)).not.toContain("sk-live-123");

    fake.script({ chunks: ["Half ", "an ", "answer"], failAfterChunks: 2 });
    const stream = await openai.chat.completions.create({
      model: agent.id,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let text = "";
    const streamed = await failure(async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    });
    expect(text).toBe("Half an ");
    expect(streamed.error).toMatchObject({ type: "server_error" });

    fake.script({ chunks: ["Half ", "an ", "answer"], failAfterChunks: 2 });
    const events: string[] = [];
    const responseStream = await openai.responses.create({
      model: agent.id,
      input: "hi",
      stream: true,
    });
    await failure(async () => {
      for await (const event of responseStream) events.push(event.type);
    });
    expect(events).toContain("response.output_text.delta");
    expect(events).not.toContain("response.completed");
  });
});

describe("bad input", () => {
  const chatCases: Array<[string, Record<string, unknown>, string | null]> = [
    ["no model", { messages: [{ role: "user", content: "hi" }] }, "model"],
    ["no messages", { model: "m" }, "messages"],
    ["empty messages", { model: "m", messages: [] }, "messages"],
    [
      "a tool message",
      { model: "m", messages: [{ role: "tool", content: "x" }] },
      "messages.0.role",
    ],
    [
      "an image part",
      {
        model: "m",
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }],
      },
      "messages.0.content",
    ],
    [
      "temperature above 2",
      { model: "m", messages: [{ role: "user", content: "hi" }], temperature: 3 },
      "temperature",
    ],
    ["n above 1", { model: "m", messages: [{ role: "user", content: "hi" }], n: 2 }, "n"],
    [
      "max_tokens 0",
      { model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 0 },
      "max_tokens",
    ],
    [
      "a conversation id with spaces",
      {
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        metadata: { conversation_id: "a b" },
      },
      "metadata.conversation_id",
    ],
    [
      "a user with spaces",
      { model: "m", messages: [{ role: "user", content: "hi" }], user: "a b" },
      "user",
    ],
  ];

  test.for(chatCases)(
    "chat completions: %s is a 400 naming the field",
    async ([, body, param], { app, org }) => {
      const response = await post(app, org, "/chat/completions", body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: { message: expect.any(String), type: "invalid_request_error", param, code: null },
      });
    },
  );

  test("the question must be the last message, a user's, and not empty", async ({
    app,
    org,
    agent,
  }) => {
    const openai = await clientOf(app, org.apiKey);
    for (const messages of [
      [
        { role: "user" as const, content: "hi" },
        { role: "assistant" as const, content: "hello" },
      ],
      [{ role: "system" as const, content: "be brief" }],
      [{ role: "user" as const, content: "   " }],
    ]) {
      const error = await failure(() =>
        openai.chat.completions.create({ model: agent.id, messages }),
      );
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.error).toMatchObject({ type: "invalid_request_error", param: "messages" });
    }
  });

  test("responses: bad input, and previous_response_id with a conversation id, are 400s", async ({
    app,
    org,
    agent,
  }) => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ model: agent.id }, "input"],
      [{ model: agent.id, input: [] }, "input"],
      [{ model: agent.id, input: [{ role: "user", content: [{ type: "input_image" }] }] }, "input"],
      [{ model: agent.id, input: "" }, "input"],
      [{ model: agent.id, input: "hi", max_output_tokens: -1 }, "max_output_tokens"],
      [
        {
          model: agent.id,
          input: "hi",
          previous_response_id: "resp_x",
          metadata: { conversation_id: "c1" },
        },
        "previous_response_id",
      ],
    ];
    for (const [body, param] of cases) {
      const response = await post(app, org, "/responses", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toMatchObject({ type: "invalid_request_error", param });
    }
  });

  test("malformed JSON, an oversized body and an unknown path answer in OpenAI's shape", async ({
    app,
    org,
  }) => {
    const invalidJson = await post(app, org, "/chat/completions", "{not json");
    expect(invalidJson).toMatchObject({
      status: 400,
      body: { error: { type: "invalid_request_error", message: expect.any(String) } },
    });
    const huge = await post(app, org, "/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "x".repeat(2 * 1024 * 1024) }],
    });
    expect(huge).toMatchObject({ status: 413, body: { error: { code: "request_too_large" } } });
    const unknown = await post(app, org, "/embeddings", { input: "x" });
    expect(unknown).toEqual({
      status: 404,
      body: {
        error: {
          message: "Unknown request URL: POST /v1/embeddings",
          type: "invalid_request_error",
          param: null,
          code: "unknown_url",
        },
      },
    });
    // The rest of the API keeps its own error envelope.
    const dashboard = await app.client(org.auth).agents.get("no-such-agent");
    expect(dashboard.status).toBe(404);
    expect(dashboard.body).toMatchObject({ type: "NOT_FOUND", requestId: expect.any(String) });
  });
});

type DocumentedResponse = { content: Record<string, { schema: unknown }> };

describe("OpenAPI document", () => {
  test("documents the /v1 operations with OpenAI's error body", async ({ app }) => {
    const response = await app.api.inject({ url: "/api/openapi.json" });
    const document = response.json() as {
      paths: Record<
        string,
        Record<string, { tags: string[]; responses: Record<string, DocumentedResponse> }>
      >;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/v1/models",
        "/v1/models/{model}",
        "/v1/chat/completions",
        "/v1/responses",
      ]),
    );
    const chat = document.paths["/v1/chat/completions"]!.post!;
    expect(chat.tags).toEqual(["openai"]);
    expect(Object.keys(chat.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "402", "404", "500"]),
    );
    expect(chat.responses["402"]?.content["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/OpenAIError",
    });
    expect(Object.keys(chat.responses["200"]?.content ?? {})).toEqual([
      "application/json",
      "text/event-stream",
    ]);
    expect(document.components.schemas.OpenAIError).toMatchObject({
      properties: { error: { required: ["message", "type", "param", "code"] } },
    });
    const query = document.paths["/api/agents/{id}/query"]!.post!;
    expect(query.responses["402"]?.content["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
  });
});
