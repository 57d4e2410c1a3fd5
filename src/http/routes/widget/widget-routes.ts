import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PublicChatService } from "../../../domain/public-chat/public-chat-service.ts";
import { AppError } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { CHAT_PAGE_CSP, chatPage, notFoundPage } from "./chat-page.ts";
import { loadWidgetBundle } from "./widget-bundle.ts";

export type WidgetRouteDeps = { publicChat: Pick<PublicChatService, "profile"> };

/** How long browsers and proxies may reuse /widget.js before asking again (ETag then 304). */
const WIDGET_MAX_AGE_SECONDS = 300;

/**
 * The spec's endpoints the widget calls besides the public chat: anonymous annotations and
 * transcription take a public agent's id or message and no key. Their answers are readable by a
 * page of any origin, as the public chat's are.
 */
const WIDGET_CALLS = new Set(["/api/annotations", "/api/transcribe-audio"]);

function matches(entityTag: string | undefined, etag: string): boolean {
  if (!entityTag) return false;
  return entityTag
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === etag || tag === "*");
}

function allowOrigin(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  reply.header("access-control-allow-origin", origin);
  reply.header("vary", "Origin");
}

/**
 * GET /widget.js (the chat widget, for a script tag on any site), GET /chat/{agentId} (the same
 * widget as a full page), and CORS for the two spec endpoints the widget calls.
 */
export function registerWidgetRoutes(app: App, deps: WidgetRouteDeps): void {
  const bundle = loadWidgetBundle();

  app.addHook("onRequest", async (request, reply) => {
    if (request.method !== "POST" && request.method !== "OPTIONS") return;
    if (WIDGET_CALLS.has(request.url.split("?")[0]!)) allowOrigin(request, reply);
  });
  for (const url of WIDGET_CALLS) {
    app.options(url, { config: { auth: "public" }, schema: { hide: true } }, async (_, reply) => {
      reply.header("access-control-allow-methods", "POST");
      reply.header("access-control-allow-headers", "Content-Type");
      reply.header("access-control-max-age", "600");
      return reply.code(204).send();
    });
  }

  app.get(
    "/widget.js",
    {
      config: { auth: "public" },
      // A script and a page, not JSON: documented in docs/widget.md, not in the OpenAPI document.
      schema: { hide: true },
    },
    async (request, reply) => {
      const widget = bundle();
      if (!widget) throw new AppError("SERVICE_UNAVAILABLE", "The widget has not been built");
      reply
        .header("etag", widget.etag)
        .header("cache-control", `public, max-age=${WIDGET_MAX_AGE_SECONDS}`)
        .header("access-control-allow-origin", "*")
        .header("cross-origin-resource-policy", "cross-origin");
      if (matches(request.headers["if-none-match"], widget.etag)) {
        return reply.code(304).send();
      }
      return reply.type("text/javascript; charset=utf-8").send(widget.body);
    },
  );

  app.get(
    "/chat/:agentId",
    {
      config: { auth: "public" },
      schema: { hide: true, params: z.object({ agentId: z.string().max(100) }) },
    },
    async (request, reply) => {
      reply.header("content-security-policy", CHAT_PAGE_CSP);
      reply.type("text/html; charset=utf-8");
      try {
        const agent = await deps.publicChat.profile(request.params.agentId);
        return reply.send(chatPage(agent));
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 404) throw error;
        return reply.code(404).send(notFoundPage());
      }
    },
  );
}
