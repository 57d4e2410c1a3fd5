import type { ChatReply, RecordedRequest } from "../fakes/openai-server.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import type { ApiClient } from "../harness/client.ts";

/** POST /api/agents/{id}/follow-up/query through the client, with `org`'s key unless `headers`. */
export function sendFollowUp(
  app: TestApp,
  org: TestOrganization | null,
  agentId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = org?.auth ?? {},
) {
  return app.client(headers).agents.followUp(agentId, body);
}

/** Appends an agent-authored message (no model call), creating the conversation if needed. */
export async function appendAgentMessage(
  app: TestApp,
  org: TestOrganization,
  agentId: string,
  body: { query: string; conversationId?: string; channel?: string },
): Promise<{ conversationId: string; messageId: string }> {
  // `channel` is checked by the route: the bad-input tests send channels of every kind.
  const response = await app
    .client(org.auth)
    .agents.queryAgent(agentId, body as Parameters<ApiClient["agents"]["queryAgent"]>[1]);
  if (response.status !== 200) throw new Error(`query-agent: ${response.text}`);
  return response.body;
}

export const isClassification = (request: RecordedRequest) =>
  (request.body?.response_format as { type?: string } | undefined)?.type === "json_schema";

export const chatCalls = (requests: RecordedRequest[]) =>
  requests.filter((request) => request.path === "/v1/chat/completions");

/** The user text the writer (not the classifier) was sent. */
export function writerPrompt(requests: RecordedRequest[]): string {
  const writer = chatCalls(requests).find((request) => !isClassification(request));
  const messages = (writer?.body?.messages ?? []) as Array<{ role: string; content: string }>;
  return messages.map((message) => `${message.role}: ${message.content}`).join("\n");
}

/**
 * Queues the replies of one follow-up call whatever order its two model calls arrive in: the
 * classifier (structured output) gets the verdict, the writer gets the text.
 */
export function scriptFollowUp(
  fake: { script(...replies: Array<(request: RecordedRequest) => ChatReply>): void },
  reply: { verdict?: string; writer?: ChatReply; calls?: number },
): void {
  const answer = (request: RecordedRequest): ChatReply =>
    isClassification(request)
      ? { json: { verdict: reply.verdict ?? "follow_up_conversation" } }
      : (reply.writer ?? { text: "Just checking in: did the replacement arrive?" });
  fake.script(...Array.from({ length: reply.calls ?? 2 }, () => answer));
}
