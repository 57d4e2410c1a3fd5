import { randomUUID } from "node:crypto";
import { type PromptPassage, parseKnowledgeBlock } from "./knowledge-prompt.ts";
import { ModelUnavailableError } from "./model-errors.ts";
import { OFFLINE_MODEL_ID, OFFLINE_PROVIDER } from "./model-prices.ts";
import type {
  LanguageModelCallOptions,
  LanguageModelGenerateResult,
  LanguageModelStreamPart,
  LanguageModelUsageV3,
  LanguageModelV3,
} from "./model-types.ts";
import { composeOfflineAnswer } from "./offline-answer.ts";
import { estimatePromptTokens, estimateTokens, messageText } from "./token-estimate.ts";

export type OfflineResponderOptions = {
  /**
   * How to get a real model, completing "To get written answers, …" (names the env var): for
   * operators. Without it the answers carry no hint, as a visitor or a customer should read them.
   */
  configureHint?: string;
};

type ProviderMetadata = NonNullable<LanguageModelGenerateResult["providerMetadata"]>;
const TEXT_ID = "text-0";
const STOP = { unified: "stop", raw: "stop" } as const;

/** Word-sized pieces whose concatenation is exactly the text (each word keeps its trailing space). */
function splitIntoWords(text: string): string[] {
  return text.length === 0 ? [] : text.split(/(?<=\s)(?=\S)/);
}

/**
 * The passages an offline answer quoted, from its provider metadata (`local.quoted`); null for an
 * answer of any other model. Sources of an offline answer are these, not every passage it was given.
 */
export function quotedPassagesOf(metadata: ProviderMetadata | undefined): PromptPassage[] | null {
  const quoted = metadata?.[OFFLINE_PROVIDER]?.quoted;
  if (!Array.isArray(quoted)) return null;
  return quoted.flatMap((entry) =>
    entry !== null &&
    typeof entry === "object" &&
    !Array.isArray(entry) &&
    typeof entry.source === "string" &&
    typeof entry.text === "string"
      ? [{ source: entry.source, text: entry.text }]
      : [],
  );
}

/**
 * A language model that needs no provider: it quotes the knowledge passages the query path put in
 * the system prompt (see knowledge-prompt.ts) that best match the last user message, and says so.
 */
export function createOfflineResponder(options: OfflineResponderOptions = {}): LanguageModelV3 {
  const { configureHint } = options;

  function respond(call: LanguageModelCallOptions) {
    call.abortSignal?.throwIfAborted();
    if (call.responseFormat?.type === "json") {
      throw new ModelUnavailableError(
        `Structured output needs a language model and none is configured${configureHint ? `: ${configureHint}` : ""}`,
      );
    }
    const systemText = call.prompt
      .filter((message) => message.role === "system")
      .map((message) => message.content)
      .join("\n");
    const lastUser = call.prompt.findLast((message) => message.role === "user");
    const { text, quoted } = composeOfflineAnswer({
      question: lastUser ? messageText(lastUser) : "",
      passages: parseKnowledgeBlock(systemText),
      configureHint,
    });
    const inputTokens = estimatePromptTokens(call.prompt);
    const outputTokens = estimateTokens(text);
    const usage: LanguageModelUsageV3 = {
      inputTokens: {
        total: inputTokens,
        noCache: inputTokens,
        cacheRead: undefined,
        cacheWrite: undefined,
      },
      outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
      raw: { estimate: "ceil(characters / 4), plus 4 per prompt message" },
    };
    const warnings: LanguageModelGenerateResult["warnings"] =
      call.tools && call.tools.length > 0
        ? [
            {
              type: "unsupported",
              feature: "tools",
              details: "the offline responder calls no tools",
            },
          ]
        : [];
    const response = {
      id: `offline-${randomUUID()}`,
      modelId: OFFLINE_MODEL_ID,
      timestamp: new Date(),
    };
    const providerMetadata: ProviderMetadata = {
      [OFFLINE_PROVIDER]: {
        quoted: quoted.map((passage) => ({ source: passage.source, text: passage.text })),
      },
    };
    return { text, usage, warnings, response, providerMetadata };
  }

  return {
    specificationVersion: "v3",
    provider: OFFLINE_PROVIDER,
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},

    async doGenerate(call) {
      const { text, usage, warnings, response, providerMetadata } = respond(call);
      return {
        content: [{ type: "text", text }],
        finishReason: STOP,
        usage,
        warnings,
        response,
        providerMetadata,
      };
    },

    async doStream(call) {
      const { text, usage, warnings, response, providerMetadata } = respond(call);
      const parts: LanguageModelStreamPart[] = [
        { type: "stream-start", warnings },
        { type: "response-metadata", ...response },
        { type: "text-start", id: TEXT_ID },
        ...splitIntoWords(text).map(
          (delta): LanguageModelStreamPart => ({ type: "text-delta", id: TEXT_ID, delta }),
        ),
        { type: "text-end", id: TEXT_ID },
        { type: "finish", usage, finishReason: STOP, providerMetadata },
      ];
      let next = 0;
      // One part per pull: the reader sets the pace, and an abort stops the stream between words.
      const stream = new ReadableStream<LanguageModelStreamPart>({
        pull(controller) {
          if (call.abortSignal?.aborted) {
            controller.error(call.abortSignal.reason);
            return;
          }
          const part = parts[next];
          next += 1;
          if (part) controller.enqueue(part);
          if (next >= parts.length) controller.close();
        },
      });
      return { stream };
    },
  };
}
