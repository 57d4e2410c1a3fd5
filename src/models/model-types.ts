import type { EmbeddingModel, LanguageModel, TranscriptionModel } from "ai";

// The provider specification types live in @ai-sdk/provider, which is not a direct dependency;
// deriving them from the `ai` exports keeps our imports to what package.json declares.

/** An AI SDK 6 language model instance (specification "v3"). */
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: "v3" }>;
export type EmbeddingModelV3 = Extract<EmbeddingModel, { specificationVersion: "v3" }>;
export type TranscriptionModelV3 = Extract<TranscriptionModel, { specificationVersion: "v3" }>;

export type LanguageModelCallOptions = Parameters<LanguageModelV3["doGenerate"]>[0];
export type LanguageModelPrompt = LanguageModelCallOptions["prompt"];
export type LanguageModelMessage = LanguageModelPrompt[number];
export type LanguageModelGenerateResult = Awaited<ReturnType<LanguageModelV3["doGenerate"]>>;
type LanguageModelStreamResult = Awaited<ReturnType<LanguageModelV3["doStream"]>>;
export type LanguageModelStreamPart =
  LanguageModelStreamResult["stream"] extends ReadableStream<infer Part> ? Part : never;
export type LanguageModelUsageV3 = LanguageModelGenerateResult["usage"];
