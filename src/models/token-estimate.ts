import type { LanguageModelMessage, LanguageModelPrompt } from "./model-types.ts";

// No tokenizer ships with the service, so counts follow OpenAI's rule of thumb for English: one
// token per four characters, plus a fixed framing cost per message (role and separators).
const CHARS_PER_TOKEN = 4;
const TOKENS_PER_MESSAGE = 4;

/** Approximate token count of a text: ceil(length / 4). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The text a message carries, tool calls and results included as JSON. */
export function messageText(message: LanguageModelMessage): string {
  if (message.role === "system") return message.content;
  return message.content
    .map((part) => {
      switch (part.type) {
        case "text":
        case "reasoning":
          return part.text;
        case "tool-call":
          return `${part.toolName} ${JSON.stringify(part.input)}`;
        case "tool-result":
          return JSON.stringify(part.output);
        default:
          return "";
      }
    })
    .join("\n");
}

/** Approximate input tokens of a whole prompt: the text estimate plus 4 tokens per message. */
export function estimatePromptTokens(prompt: LanguageModelPrompt): number {
  return prompt.reduce(
    (total, message) => total + TOKENS_PER_MESSAGE + estimateTokens(messageText(message)),
    0,
  );
}
