import type { AgentModelName } from "../../models/model-catalog.ts";
import type { ModelRegistry } from "../../models/model-registry.ts";
import type { ReservationRequest } from "../billing/billing-port.ts";

// A model turn takes at most two steps (the handover tool's, see model-turn.ts); the second
// step's prompt is the first one's plus the first step's output and the tool's result.
const MODEL_STEPS = 2;
// Budgets are counted in estimated tokens of four characters (token-estimate.ts).
const CHARS_PER_ESTIMATED_TOKEN = 4;
// The prompt's own wording: instructions, section headings, the tool, message framing.
const PROMPT_FRAMING_CHARS = 4_000;

export type PromptBudgets = {
  historyTokenBudget: number;
  knowledgeTokenBudget: number;
  attachmentTokenBudget: number;
};

/**
 * The most characters a prompt can hold before it is built: the texts already known plus every
 * budget filled (history, passages and, when the message has any, attachments).
 */
export function promptCharsBound(
  known: ReadonlyArray<string | undefined>,
  budgets: PromptBudgets,
  options: { knowledge: boolean; attachments: boolean },
): number {
  const budgetTokens =
    budgets.historyTokenBudget +
    (options.knowledge ? budgets.knowledgeTokenBudget : 0) +
    (options.attachments ? budgets.attachmentTokenBudget : 0);
  const knownChars = known.reduce((total, text) => total + (text?.length ?? 0), 0);
  return knownChars + budgetTokens * CHARS_PER_ESTIMATED_TOKEN + PROMPT_FRAMING_CHARS;
}

/**
 * What billing reserves before an agent's model turn: its usage at most, counting one token per
 * character of prompt (no tokenizer splits ordinary text finer) and every output token allowed,
 * over both steps, priced as the dearer of the models the agent's name can route to.
 */
export function turnReservation(
  models: Pick<ModelRegistry, "resolveLanguageModel">,
  request: {
    organizationId: string;
    feature: string;
    modelName: AgentModelName;
    promptChars: number;
    maxOutputTokens: number;
    holdMs: number;
    /** Other models the turn may call (super retrieval's helpers, fallbacks, comparisons). */
    otherModelNames?: readonly AgentModelName[];
    /** Model calls the turn makes at most, each bounded like the answer (default 1). */
    calls?: number;
  },
): ReservationRequest {
  const calls = request.calls ?? 1;
  const inputTokens = calls * MODEL_STEPS * (request.promptChars + request.maxOutputTokens);
  const outputTokens = calls * MODEL_STEPS * request.maxOutputTokens;
  const costOf = (prices: { input: number; output: number }) =>
    inputTokens * prices.input + outputTokens * prices.output;
  // model_route sends short prompts to one model and long ones to another.
  const [dearest] = [request.modelName, ...(request.otherModelNames ?? [])]
    .flatMap((modelName) => [
      models.resolveLanguageModel(modelName, { promptTokens: 0 }),
      models.resolveLanguageModel(modelName, { promptTokens: request.promptChars }),
    ])
    .sort((left, right) => costOf(right.prices) - costOf(left.prices));
  return {
    organizationId: request.organizationId,
    feature: request.feature,
    provider: dearest!.provider,
    modelName: dearest!.providerModelId,
    inputTokens,
    outputTokens,
    holdMs: request.holdMs,
  };
}
