import { contentText } from "./openai-fake-http.ts";
import type { ChatReply, RecordedRequest } from "./openai-fake-types.ts";

type Message = { role?: unknown; content?: unknown };

/** Marks that tests put in an agent's prompts, so the fake knows which call it answers. */
export const QUERY_PROMPT = "QUERY-WRITER: write search queries, one per line.";
export const EVALUATOR_PROMPT = "PASSAGE-JUDGE: score each passage as <number>: <score>.";

export type HelperCall = "queries" | "evaluation" | "answer";

const messagesOf = (request: RecordedRequest) =>
  (Array.isArray(request.body?.messages) ? request.body.messages : []) as Message[];

export const systemOf = (request: RecordedRequest) =>
  messagesOf(request)
    .filter((message) => message.role === "system")
    .map((message) => contentText(message.content))
    .join("\n");

export const userOf = (request: RecordedRequest) =>
  messagesOf(request)
    .filter((message) => message.role === "user")
    .map((message) => contentText(message.content))
    .join("\n");

/** Which call of an answer a chat request is, from the prompts the test's agent uses. */
export function callOf(request: RecordedRequest): HelperCall {
  const system = systemOf(request);
  if (system.includes(QUERY_PROMPT)) return "queries";
  if (system.includes(EVALUATOR_PROMPT)) return "evaluation";
  return "answer";
}

/** The passages an evaluation request asks about, in order. */
export function passagesOf(request: RecordedRequest): string[] {
  return [...userOf(request).matchAll(/<passage number="\d+">\n([\s\S]*?)\n<\/passage>/g)].map(
    (match) => match[1] ?? "",
  );
}

export type HelperModelScript = {
  /** The queries the query writer answers, from its request. */
  queries?: (request: RecordedRequest) => string[];
  /** A passage's score from the judge (default 0). */
  score?: (passage: string) => number;
  /** The answer (default: the fake's "Answer: <question>"). */
  answer?: (request: RecordedRequest) => ChatReply;
};

/**
 * A chat reply for the fake OpenAI server that plays the three roles of super retrieval: the
 * query writer (lines of queries), the judge (`<number>: <score>` lines computed from each
 * passage's text) and the answering model.
 */
export function helperModel(script: HelperModelScript) {
  return (request: RecordedRequest): ChatReply => {
    const call = callOf(request);
    if (call === "queries") return { text: (script.queries?.(request) ?? []).join("\n") };
    if (call === "evaluation") {
      const lines = passagesOf(request).map(
        (passage, index) => `${index + 1}: ${script.score?.(passage) ?? 0}`,
      );
      return { text: lines.join("\n") };
    }
    return script.answer?.(request) ?? {};
  };
}
