import cors from "@fastify/cors";
import type { FastifyRequest } from "fastify";
import type { PublicChatService } from "../../../domain/public-chat/public-chat-service.ts";
import { AppError } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { isOwnOrigin } from "../../own-origin.ts";

/** The agent a request under /api/public names: a route's param, or the preflight's path. */
function agentIdOf(request: FastifyRequest): string | null {
  const params = request.params as { agentId?: string; "*"?: string } | undefined;
  if (params?.agentId) return params.agentId;
  const match = /^\/?agents\/([^/]+)/.exec(params?.["*"] ?? "");
  return match ? match[1]! : null;
}

/**
 * CORS of the public chat's scope (the dashboard API sends none): the request's Origin is
 * reflected, with `Vary: Origin`, unless the agent lists allowed origins and this is not one of
 * them; then the request, preflight included, is refused with 403 before the CORS headers are
 * written. A request without an Origin (not from a browser page) is never refused, nor is one
 * from the service's own origin: its chat page `/chat/{agentId}` is ours, not a third party's.
 */
export async function registerPublicChatCors(
  scope: App,
  publicChat: Pick<PublicChatService, "originAllowed">,
  publicOrigin: string,
): Promise<void> {
  // Added before the CORS plugin so it runs first: a refused origin gets no CORS headers.
  scope.addHook("onRequest", async (request) => {
    const origin = request.headers.origin;
    const agentId = agentIdOf(request);
    if (origin === undefined || agentId === null) return;
    if (isOwnOrigin(request, origin, publicOrigin)) return;
    if (!(await publicChat.originAllowed(agentId, origin))) {
      throw new AppError("FORBIDDEN", "This agent's chat is not available to pages of this origin");
    }
  });
  await scope.register(cors, {
    origin: true,
    methods: ["GET", "POST"],
    // Last-Event-ID: what a reconnecting EventSource sends to the events stream.
    allowedHeaders: ["Content-Type", "Last-Event-ID"],
    exposedHeaders: ["Retry-After", "X-Request-Id"],
    maxAge: 600,
  });
}
