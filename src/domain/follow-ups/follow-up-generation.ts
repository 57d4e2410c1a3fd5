import { generateText, Output } from "ai";
import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import { toModelProviderError } from "../../models/model-failure.ts";
import type { FollowUpModel } from "./follow-up-model.ts";
import {
  CLASSIFIER_INSTRUCTIONS,
  classifierRequest,
  FOLLOW_UP_VERDICTS,
  type FollowUpVerdict,
  writerRequest,
} from "./follow-up-prompts.ts";

export type GenerationSettings = {
  timeoutMs: number;
  maxRetries: number;
  /** Most tokens the follow-up may have: what bounds the credits reserved for it. */
  maxOutputTokens: number;
};

const verdictSchema = z.object({ verdict: z.enum(FOLLOW_UP_VERDICTS) });

function modelFailure(error: unknown, model: FollowUpModel, step: string): AppError {
  if (error instanceof AppError) return error;
  const failure = toModelProviderError(error, model.spec);
  return new AppError("INTERNAL", `The follow-up ${step} failed: ${failure.message}`);
}

/** Structured output: one verdict. Not billed (spec), so its usage is not reported either. */
export async function classifyConversation(
  model: FollowUpModel,
  transcript: string,
  settings: GenerationSettings,
): Promise<FollowUpVerdict> {
  try {
    const result = await generateText({
      model: model.model,
      system: CLASSIFIER_INSTRUCTIONS,
      messages: [{ role: "user", content: classifierRequest(transcript) }],
      output: Output.object({ schema: verdictSchema, name: "follow_up_verdict" }),
      temperature: 0,
      maxRetries: settings.maxRetries,
      timeout: settings.timeoutMs,
    });
    return result.output.verdict;
  } catch (error) {
    throw modelFailure(error, model, "filter");
  }
}

export type WrittenFollowUp = { text: string; inputTokens: number; outputTokens: number };

/** The follow-up message; an empty answer is a 500 that names the model's finish reason. */
export async function writeFollowUp(
  model: FollowUpModel,
  instructions: string,
  transcript: string,
  settings: GenerationSettings,
): Promise<WrittenFollowUp> {
  let result: Awaited<ReturnType<typeof generateText>>;
  try {
    result = await generateText({
      model: model.model,
      system: instructions,
      messages: [{ role: "user", content: writerRequest(transcript) }],
      maxOutputTokens: settings.maxOutputTokens,
      maxRetries: settings.maxRetries,
      timeout: settings.timeoutMs,
    });
  } catch (error) {
    throw modelFailure(error, model, "model call");
  }
  const text = result.text.trim();
  if (text === "") {
    const reason = result.rawFinishReason ?? result.finishReason;
    throw new AppError(
      "INTERNAL",
      `The follow-up model returned an empty response (finish reason: ${reason})`,
    );
  }
  return {
    text,
    inputTokens: result.totalUsage.inputTokens ?? 0,
    outputTokens: result.totalUsage.outputTokens ?? 0,
  };
}
