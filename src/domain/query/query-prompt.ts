import type { ModelMessage } from "ai";
import { formatKnowledgeBlock, type PromptPassage } from "../../models/knowledge-prompt.ts";
import { estimateTokens } from "../../models/token-estimate.ts";

export type PromptType = "raw" | "customer_support";

export type PromptInput = {
  agentName: string;
  promptType: PromptType;
  /** The agent's system prompt, or the request's override. */
  systemPrompt: string;
  /** The agent's user prompt: a template when it contains `{query}`. */
  userPrompt: string;
  context?: string;
  /** The agent retrieves from datastores (the passages may still be empty for this query). */
  usesKnowledge: boolean;
  passages: readonly PromptPassage[];
  history: ReadonlyArray<{ from: "human" | "agent"; text: string }>;
  historyTokenBudget: number;
  query: string;
  attachments: ReadonlyArray<{ name: string; text: string }>;
  /** The customer asked for a person in this message. */
  humanRequested: boolean;
};

export type BuiltPrompt = { system: string; messages: ModelMessage[] };

/** The name of the tool the model calls to hand the conversation to a person. */
export const REQUEST_HUMAN_TOOL = "request_human";

// Our own neutral support template: no persona beyond the agent's name, no vendor wording.
function supportInstructions(agentName: string, usesKnowledge: boolean): string {
  return [
    `You are ${agentName}, an assistant that answers customers on behalf of this organization.`,
    usesKnowledge
      ? "- Base your answers on the knowledge passages below. If they do not contain the answer, say that you do not know rather than guessing; never invent prices, policies or facts."
      : "- Never invent prices, policies or facts about the organization; say so when you do not know.",
    "- Answer in the language of the customer's last message, briefly and politely.",
    `- If the customer asks for a person, or you cannot help, call the ${REQUEST_HUMAN_TOOL} tool.`,
  ].join("\n");
}

const HUMAN_REQUESTED_NOTE =
  "The customer asked to talk to a person and a member of the team has been notified. Acknowledge this briefly; keep helping if you can.";

/** Keeps the newest messages that fit the budget (estimated tokens), oldest first. */
function trimHistory<Message extends { text: string }>(
  history: readonly Message[],
  tokenBudget: number,
): Message[] {
  const kept: Message[] = [];
  let used = 0;
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const message = history[index]!;
    used += estimateTokens(message.text) + 4;
    if (used > tokenBudget) break;
    kept.push(message);
  }
  return kept.reverse();
}

function userMessage(input: PromptInput): string {
  const question = input.userPrompt.includes("{query}")
    ? input.userPrompt.replaceAll("{query}", input.query)
    : input.query;
  if (input.attachments.length === 0) return question;
  const files = input.attachments.map(
    (file) => `<attachment name="${file.name.replaceAll('"', "'")}">\n${file.text}\n</attachment>`,
  );
  return `${question}\n\nAttached files:\n${files.join("\n")}`;
}

/**
 * The system prompt and messages of a query. `customer_support` wraps the agent's instructions in
 * our template; `raw` sends the system prompt exactly as written. Both end with the knowledge
 * block when the agent has datastores (the offline responder reads it there, see
 * knowledge-prompt.ts).
 */
export function buildQueryPrompt(input: PromptInput): BuiltPrompt {
  const parts: string[] = [];
  if (input.promptType === "customer_support") {
    parts.push(supportInstructions(input.agentName, input.usesKnowledge));
    if (input.systemPrompt.trim() !== "") {
      parts.push(`Instructions from the organization:\n${input.systemPrompt}`);
    }
    if (input.humanRequested) parts.push(HUMAN_REQUESTED_NOTE);
  } else if (input.systemPrompt.trim() !== "") {
    parts.push(input.systemPrompt);
  }
  if (input.context && input.context.trim() !== "") {
    parts.push(`Context for this request:\n${input.context}`);
  }
  if (input.usesKnowledge) parts.push(formatKnowledgeBlock(input.passages));

  const history: ModelMessage[] = trimHistory(input.history, input.historyTokenBudget).map(
    (message) =>
      message.from === "human"
        ? { role: "user", content: message.text }
        : { role: "assistant", content: message.text },
  );
  return {
    system: parts.join("\n\n"),
    messages: [...history, { role: "user", content: userMessage(input) }],
  };
}
