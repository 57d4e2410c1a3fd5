import type { HistoryMessage } from "../query/answer-input.ts";
import { HISTORY_MESSAGES } from "../query/answer-pipeline.ts";
import { invalidParam } from "./openai-error.ts";

/** A message of an OpenAI request, its content reduced to text. */
export type TurnMessage = {
  role: "system" | "developer" | "user" | "assistant";
  content: string | ReadonlyArray<{ text: string }>;
};

/** What the answer pipeline reads from a list of OpenAI messages. */
export type CallerTurn = {
  /** The last message, a user's. */
  question: string;
  /** The user and assistant messages before it, oldest first (at most the last 24). */
  history: HistoryMessage[];
  /** The system and developer messages, joined: the request's system prompt override. */
  systemPrompt?: string;
};

const textOf = (content: TurnMessage["content"]) =>
  typeof content === "string" ? content : content.map((part) => part.text).join("\n");

/**
 * Splits OpenAI messages into the question (the last message, which must be the user's), the
 * history before it and the system prompt (every system or developer message, wherever it is).
 */
export function callerTurnOf(
  messages: readonly TurnMessage[],
  param: string,
  instructions?: string | null,
): CallerTurn {
  const system: string[] = instructions ? [instructions] : [];
  const conversation: Array<{ role: "user" | "assistant"; text: string }> = [];
  for (const message of messages) {
    const text = textOf(message.content);
    if (message.role === "system" || message.role === "developer") system.push(text);
    else conversation.push({ role: message.role, text });
  }
  const last = conversation.pop();
  if (last?.role !== "user") {
    throw invalidParam(param, `The last message of '${param}' must be a user message`);
  }
  if (last.text.trim() === "") {
    throw invalidParam(param, `The last user message of '${param}' must not be empty`);
  }
  const systemPrompt = system.filter((text) => text.trim() !== "").join("\n\n");
  return {
    question: last.text,
    history: conversation
      .filter((message) => message.text.trim() !== "")
      .slice(-HISTORY_MESSAGES)
      .map((message) => ({
        from: message.role === "user" ? "human" : "agent",
        text: message.text,
      })),
    ...(systemPrompt ? { systemPrompt } : {}),
  };
}
