import { generateText, Output, streamText, tool } from "ai";
import { describe, expect } from "vitest";
import { z } from "zod";
import { toModelProviderError } from "../../src/models/model-failure.ts";
import { createModelRegistry } from "../../src/models/model-registry.ts";
import type { ModelTransport } from "../../src/models/model-transport.ts";
import { type ModelFixtures, modelTest } from "./model-fixtures.ts";

const test = modelTest({ apiKey: "sk-test" });

/** Each wire test runs over the platform's fetch and over the transport the service uses. */
const clients = [
  ["the platform's fetch", (_transport: ModelTransport) => undefined],
  ["the model transport", (transport: ModelTransport) => transport.fetch],
] as const;

describe.each(clients)("OpenAI models through the registry over %s", (_, fetchOf) => {
  const openaiModel = (
    { fake, transport }: ModelFixtures,
    modelName: "gpt_4o" | "gpt_41_mini" = "gpt_4o",
  ) =>
    createModelRegistry({
      providerKeys: { openai: "sk-test" },
      openaiBaseUrl: fake.url,
      fetch: fetchOf(transport),
    }).resolveLanguageModel(modelName).model;

  test("generates text with the provider's usage and sends key, model and prompt", async ({
    fake,
    transport,
  }) => {
    const result = await generateText({
      model: openaiModel({ fake, transport }),
      system: "You are terse.",
      prompt: "What is the refund window?",
    });
    expect(result.text).toBe("Answer: What is the refund window?");
    // The fake counts words: 3 (system) + 5 (user) in, 6 out.
    expect(result.usage).toMatchObject({ inputTokens: 8, outputTokens: 6, totalTokens: 14 });
    expect(result.finishReason).toBe("stop");
    const [request] = fake.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(request?.body).toMatchObject({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "What is the refund window?" },
      ],
    });
  });

  test("streams word-sized deltas and reports usage at the end", async ({ fake, transport }) => {
    fake.script({ text: "Refunds are accepted within thirty days.", usage: { promptTokens: 42 } });
    const result = streamText({
      model: openaiModel({ fake, transport }, "gpt_41_mini"),
      prompt: "refunds?",
    });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas).toEqual(["Refunds ", "are ", "accepted ", "within ", "thirty ", "days."]);
    expect(await result.usage).toMatchObject({ inputTokens: 42, outputTokens: 6, totalTokens: 48 });
    expect(await result.finishReason).toBe("stop");
    expect(fake.requests[0]?.body).toMatchObject({
      model: "gpt-4.1-mini",
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test("passes an empty answer and its finish reason through", async ({ fake, transport }) => {
    fake.script({ text: "", finishReason: "length", usage: { completionTokens: 0 } });
    const result = await generateText({
      model: openaiModel({ fake, transport }),
      prompt: "long question",
    });
    expect(result.text).toBe("");
    expect(result.finishReason).toBe("length");
  });

  test("carries tool calls, then the answer that follows the tool result", async ({
    fake,
    transport,
  }) => {
    fake.script(
      { toolCalls: [{ name: "request_human", arguments: { reason: "angry customer" } }] },
      (request) => ({
        text: `saw ${JSON.stringify((request.body?.messages as unknown[] | undefined)?.at(-1))}`,
      }),
    );
    let calledWith: unknown;
    const result = await generateText({
      model: openaiModel({ fake, transport }),
      prompt: "I want a person",
      tools: {
        request_human: tool({
          description: "Hand the conversation to a human",
          inputSchema: z.object({ reason: z.string() }),
          execute: async (input) => {
            calledWith = input;
            return { queued: true };
          },
        }),
      },
      stopWhen: ({ steps }) => steps.length >= 2,
    });
    expect(calledWith).toEqual({ reason: "angry customer" });
    expect(result.steps[0]?.finishReason).toBe("tool-calls");
    expect(result.text).toContain('"role":"tool"');
    expect(result.text).toContain("queued");
    expect(fake.requests[0]?.body?.tools).toMatchObject([
      { type: "function", function: { name: "request_human" } },
    ]);
  });

  test("streams tool calls", async ({ fake, transport }) => {
    fake.script({
      toolCalls: [{ id: "call_9", name: "request_human", arguments: { reason: "x" } }],
    });
    const result = streamText({
      model: openaiModel({ fake, transport }),
      prompt: "human please",
      tools: { request_human: tool({ inputSchema: z.object({ reason: z.string() }) }) },
    });
    const calls = await result.toolCalls;
    expect(calls).toMatchObject([
      { toolCallId: "call_9", toolName: "request_human", input: { reason: "x" } },
    ]);
    expect(await result.finishReason).toBe("tool-calls");
  });

  test("answers structured output requests with schema-shaped JSON", async ({
    fake,
    transport,
  }) => {
    const schema = z.object({
      message: z.string(),
      urgency: z.enum(["low", "high"]),
      count: z.number(),
    });
    const sampled = await generateText({
      model: openaiModel({ fake, transport }),
      prompt: "follow up",
      output: Output.object({ schema }),
    });
    expect(sampled.output).toEqual({ message: "sample", urgency: "low", count: 0 });
    expect(fake.requests[0]?.body?.response_format).toMatchObject({ type: "json_schema" });

    fake.script({ json: { message: "Still there?", urgency: "high", count: 2 } });
    const scripted = await generateText({
      model: openaiModel({ fake, transport }),
      prompt: "follow up",
      output: Output.object({ schema }),
    });
    expect(scripted.output).toEqual({ message: "Still there?", urgency: "high", count: 2 });
  });

  test("turns an HTTP error into a clear error without the provider's body", async ({
    fake,
    transport,
  }) => {
    fake.script({ status: 429, errorMessage: "quota exceeded for key sk-secret" });
    const failure = await generateText({
      model: openaiModel({ fake, transport }),
      prompt: "hi",
      maxRetries: 0,
    }).catch((error: unknown) => error);
    const mapped = toModelProviderError(failure, "gpt_4o");
    expect(mapped.message).toBe(
      "The model gpt_4o failed: the provider's rate limit or quota was reached (HTTP 429)",
    );
    expect(mapped.providerStatus).toBe(429);
    expect(mapped.retryable).toBe(true);
  });

  test("retries a server error before any token and then succeeds", async ({ fake, transport }) => {
    fake.script({ status: 503, retryAfterMs: 0 }, { text: "recovered" });
    const result = await generateText({
      model: openaiModel({ fake, transport }),
      prompt: "hi",
      maxRetries: 1,
    });
    expect(result.text).toBe("recovered");
    expect(fake.requests).toHaveLength(2);
  });

  test("gives up on a model that hangs when the timeout fires, and the fake sees the abort", async ({
    fake,
    transport,
  }) => {
    fake.script({ hang: true });
    const failure = await generateText({
      model: openaiModel({ fake, transport }),
      prompt: "hello?",
      maxRetries: 0,
      timeout: 200,
    }).catch((error: unknown) => error);
    expect(toModelProviderError(failure, "gpt_4o")).toMatchObject({
      message: "The model gpt_4o did not answer in time",
      retryable: true,
    });
    const seen = await fake.waitFor((request) => request.closedByClient);
    expect(seen.path).toBe("/v1/chat/completions");
  });

  test("reports a cancelled call as cancelled", async ({ fake, transport }) => {
    fake.script({ delayMs: 5_000 });
    const controller = new AbortController();
    const pending = generateText({
      model: openaiModel({ fake, transport }),
      prompt: "hello?",
      maxRetries: 0,
      abortSignal: controller.signal,
    }).catch((error: unknown) => error);
    await fake.waitFor((request) => request.path === "/v1/chat/completions");
    controller.abort();
    expect(toModelProviderError(await pending, "gpt_4o").message).toBe(
      "The call to model gpt_4o was cancelled",
    );
    await fake.waitFor((request) => request.closedByClient);
  });

  test("stops a stream that hangs mid-answer when the caller aborts", async ({
    fake,
    transport,
  }) => {
    fake.script({ text: "one two three four", hangAfterChunks: 2 });
    const controller = new AbortController();
    const result = streamText({
      model: openaiModel({ fake, transport }),
      prompt: "count",
      abortSignal: controller.signal,
    });
    const received: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") received.push(part.text);
      if (received.length === 2) controller.abort();
      if (part.type === "abort" || part.type === "error") break;
    }
    expect(received).toEqual(["one ", "two "]);
    await fake.waitFor((request) => request.closedByClient);
  });

  test("surfaces an error event that arrives mid-stream", async ({ fake, transport }) => {
    fake.script({
      text: "partial answer here",
      failAfterChunks: 1,
      errorMessage: "upstream broke",
    });
    let reported: unknown;
    const result = streamText({
      model: openaiModel({ fake, transport }),
      prompt: "go",
      onError: ({ error }) => {
        reported = error;
      },
    });
    const parts: string[] = [];
    for await (const part of result.fullStream)
      parts.push(part.type === "text-delta" ? part.text : part.type);
    expect(parts).toContain("partial ");
    expect(parts).toContain("error");
    expect(parts).not.toContain("answer ");
    expect(reported).toMatchObject({ message: "upstream broke" });
  });
});

describe("LLM_BASE_URL", () => {
  test("sends a Claude agent to the OpenAI-compatible endpoint with the LLM key", async ({
    fake,
  }) => {
    const registry = createModelRegistry({
      providerKeys: {},
      llmBaseUrl: fake.url,
      llmApiKey: "sk-test",
      overrides: { claude_4_sonnet: { providerModelId: "llama3.1:8b" } },
    });
    const resolved = registry.resolveLanguageModel("claude_4_sonnet");
    const result = streamText({ model: resolved.model, prompt: "local?" });
    expect(await result.text).toBe("Answer: local?");
    expect(await result.usage).toMatchObject({ inputTokens: 1, outputTokens: 2 });
    expect(fake.requests[0]?.body).toMatchObject({ model: "llama3.1:8b", stream: true });
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer sk-test");
  });
});
