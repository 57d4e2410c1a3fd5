import { generateText, Output } from "ai";
import { z } from "zod";
import { toModelProviderError } from "../../models/model-failure.ts";
import type { ResolvedLanguageModel } from "../../models/model-registry.ts";
import { estimateTokens } from "../../models/token-estimate.ts";

/** The most the judge may write: a score and a sentence or two of reasoning. */
export const JUDGE_MAX_OUTPUT_TOKENS = 400;

/** The judge's instructions (docs/evaluation.md quotes them). */
export const JUDGE_INSTRUCTIONS = `You grade the answer a customer-support AI agent gave, against what a reviewer expected it to say.
Score the answer from 1 to 5:
5: says everything the expectation asks for, and nothing that contradicts it.
4: meets the expectation; a detail is missing or worded loosely, nothing is wrong.
3: partly meets it: an important part is missing, nothing is wrong.
2: mostly misses it, or says something that contradicts it.
1: does not meet it at all, or is wrong.
Judge the meaning, not the wording. Reply with the score and one or two sentences of reasoning.`;

const verdictSchema = z.object({
  score: z.number().int().min(1).max(5),
  reasoning: z.string(),
});

export type JudgeVerdict = z.infer<typeof verdictSchema> & {
  inputTokens: number;
  outputTokens: number;
  usageEstimated: boolean;
};

export function judgePrompt(input: { question: string; expected: string; answer: string }) {
  return [
    `Customer's question:\n${input.question}`,
    `What the reviewer expected the answer to say:\n${input.expected}`,
    `The agent's answer:\n${input.answer}`,
  ].join("\n\n");
}

/** The judge's score of one answer; a provider failure throws ModelProviderError. */
export async function judgeAnswer(
  resolved: ResolvedLanguageModel,
  input: { question: string; expected: string; answer: string },
  settings: { timeoutMs: number; maxRetries: number; signal?: AbortSignal },
): Promise<JudgeVerdict> {
  const prompt = judgePrompt(input);
  try {
    const result = await generateText({
      model: resolved.model,
      system: JUDGE_INSTRUCTIONS,
      prompt,
      output: Output.object({ schema: verdictSchema, name: "judgement" }),
      temperature: 0,
      maxOutputTokens: JUDGE_MAX_OUTPUT_TOKENS,
      maxRetries: settings.maxRetries,
      timeout: { totalMs: settings.timeoutMs },
      abortSignal: settings.signal,
    });
    const { inputTokens, outputTokens } = result.usage;
    const known = inputTokens !== undefined;
    return {
      ...result.output,
      inputTokens: known ? inputTokens : estimateTokens(JUDGE_INSTRUCTIONS + prompt),
      outputTokens: known ? (outputTokens ?? 0) : estimateTokens(result.text),
      usageEstimated: !known,
    };
  } catch (error) {
    throw toModelProviderError(error, resolved.requestedModelName);
  }
}
