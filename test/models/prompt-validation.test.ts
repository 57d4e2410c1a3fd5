import { generateText, InvalidPromptError, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, test } from "vitest";
import { settlePromptSchema } from "../../src/models/prompt-validation.ts";

const model = () =>
  new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: "text", text: "fine" }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  });

describe("the AI SDK's prompt validation once its schema is settled", () => {
  test("still accepts the messages agents send, provider options and all", async () => {
    settlePromptSchema();
    const messages: ModelMessage[] = [
      { role: "user", content: "How fast do orders ship?" },
      { role: "assistant", content: [{ type: "text", text: "Same day." }] },
      {
        role: "user",
        content: [{ type: "text", text: "And returns?" }],
        providerOptions: { openai: { nested: { list: [1, "two", { three: null }] } } },
      },
    ];
    const result = await generateText({ model: model(), messages });
    expect(result.text).toBe("fine");
  });

  test("still refuses messages that do not match, nested JSON values included", async () => {
    settlePromptSchema();
    const refusals = [
      [{ role: "user", content: 42 }],
      [{ role: "customer", content: "hi" }],
      [{ role: "user", content: "hi", providerOptions: { openai: { when: new Date() } } }],
    ];
    for (const messages of refusals) {
      const failure = await generateText({
        model: model(),
        messages: messages as unknown as ModelMessage[],
      }).catch((error: unknown) => error);
      expect(InvalidPromptError.isInstance(failure), JSON.stringify(messages)).toBe(true);
    }
  });
});
