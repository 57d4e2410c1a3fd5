import { modelMessageSchema } from "ai";
import { isRecursiveSchema } from "zod/v4/core";

/**
 * Settles, once per process, zod's answer to whether the AI SDK's message schema can contain
 * itself. zod 4.6 checks a container's subtree for cycles the first time each new container
 * instance parses, and caches only settled answers; that check does not resolve lazy schemas, so
 * for the message schema (its JSON values are a lazy, recursive schema) it never settles. The AI
 * SDK wraps the schema in a new array on every model call (`standardizePrompt`), so every call
 * walked the whole tree again: 120-150 µs of an agent query's CPU. zod's `isRecursiveSchema`
 * walks it once with resolution and caches the answer on every node: 8-10 µs a call after it.
 * What is validated does not change.
 */
export function settlePromptSchema(): void {
  isRecursiveSchema(modelMessageSchema);
}
