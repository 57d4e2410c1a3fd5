import { z } from "zod";
import type { PublicChatService } from "../../../domain/public-chat/public-chat-service.ts";
import { AppError } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { matchesEntityTag } from "../../entity-tag.ts";
import { CHAT_PAGE_CSP, chatPage, notFoundPage } from "./chat-page.ts";
import { loadWidgetBundle } from "./widget-bundle.ts";

export type WidgetRouteDeps = { publicChat: Pick<PublicChatService, "profile"> };

/** How long browsers and proxies may reuse /widget.js before asking again (ETag then 304). */
const WIDGET_MAX_AGE_SECONDS = 300;

/**
 * GET /widget.js (the chat widget, for a script tag on any site) and GET /chat/{agentId} (the
 * same widget as a full page). The widget calls only the public chat's routes (/api/public).
 */
export function registerWidgetRoutes(app: App, deps: WidgetRouteDeps): void {
  const bundle = loadWidgetBundle();

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
        .header("x-content-type-options", "nosniff")
        .header("etag", widget.etag)
        .header("cache-control", `public, max-age=${WIDGET_MAX_AGE_SECONDS}`)
        .header("access-control-allow-origin", "*")
        .header("cross-origin-resource-policy", "cross-origin");
      if (matchesEntityTag(request.headers["if-none-match"], widget.etag)) {
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
      reply
        .header("content-security-policy", CHAT_PAGE_CSP)
        .header("x-content-type-options", "nosniff");
      reply.type("text/html; charset=utf-8");
      // A browser's page, not the JSON error envelope: the one 404 becomes an HTML page here.
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
