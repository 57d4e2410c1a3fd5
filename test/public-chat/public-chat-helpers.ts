import type { TestApp } from "../harness/app.ts";

export type PublicRequest = {
  headers?: Record<string, string>;
  /** The client's address as the socket gives it (the per-IP limit counts by it). */
  remoteAddress?: string;
};

/** POST /api/public/agents/{agentId}/chat without any key, as a visitor's browser sends it. */
export function publicChat(
  app: TestApp,
  agentId: string,
  body: Record<string, unknown>,
  request: PublicRequest = {},
) {
  return app.api.inject({
    method: "POST",
    url: `/api/public/agents/${encodeURIComponent(agentId)}/chat`,
    headers: request.headers ?? {},
    payload: body,
    ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
  });
}

/** GET /api/public/agents/{agentId}/conversations/{conversationId}?visitorId=… without a key. */
export function readPublicConversation(
  app: TestApp,
  agentId: string,
  conversationId: string,
  visitorId: string,
  headers: Record<string, string> = {},
) {
  return app.api.inject({
    method: "GET",
    url: `/api/public/agents/${agentId}/conversations/${encodeURIComponent(conversationId)}`,
    query: { visitorId },
    headers,
  });
}

/** GET /api/public/agents/{agentId} without a key. */
export function readPublicAgent(
  app: TestApp,
  agentId: string,
  headers: Record<string, string> = {},
) {
  return app.api.inject({ method: "GET", url: `/api/public/agents/${agentId}`, headers });
}

/** What the public chat shows of a query's answer: no model, usage, comparisons or approvals. */
export function publicPart(body: Record<string, unknown>) {
  const { answer, sources, messageId, conversationId, visitorId, request_human, status } = body;
  return { answer, sources, messageId, conversationId, visitorId, request_human, status };
}

/** The fields of a query answer that name this turn (ids), which two turns never share. */
export function withoutIds(body: Record<string, unknown>) {
  const { messageId: _m, conversationId: _c, visitorId: _v, ...rest } = body;
  return rest;
}
