import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { TransportScript } from "./openai-fake-types.ts";

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(payload),
  });
  response.end(payload);
}

/** The error body OpenAI sends, which the AI SDK turns into an APICallError. */
export function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const type = status >= 500 ? "server_error" : "invalid_request_error";
  sendJson(response, status, { error: { message, type, code: null } }, headers);
}

/** Sends the scripted HTTP error of a reply, if it has one; true when it did. */
export function sendScriptedError(response: ServerResponse, reply: TransportScript): boolean {
  if (!reply.status) return false;
  const headers: Record<string, string> =
    reply.retryAfterMs === undefined ? {} : { "retry-after-ms": String(reply.retryAfterMs) };
  sendError(response, reply.status, reply.errorMessage ?? `scripted HTTP ${reply.status}`, headers);
  return true;
}

/** Resolves after `ms`, or false at once when the client has gone away. */
export async function pause(ms: number | undefined, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (!ms || ms <= 0) return true;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** The fake's token count: whitespace-separated words (documented in openai-server.ts). */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === "" ? 0 : trimmed.split(/\s+/).length;
}

/** Text of an OpenAI chat message `content` (a string or an array of parts). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      part && typeof part === "object" && "text" in part && typeof part.text === "string"
        ? part.text
        : "",
    )
    .join("\n");
}
