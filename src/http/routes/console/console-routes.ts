import compress from "@fastify/compress";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { matchesEntityTag } from "../../entity-tag.ts";
import { type ConsoleFile, loadConsoleFiles } from "./console-files.ts";

export type ConsoleRouteDeps = {
  /** PUBLIC_URL: the console is at PUBLIC_URL/console, and links it makes start there. */
  publicUrl: string;
};

/**
 * The console talks only to this service (scripts, styles, API calls and the event stream are
 * all 'self'), shows only its own images and data: URLs, and cannot be framed by another site.
 */
const CONSOLE_CSP =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; " +
  "form-action 'self'; frame-ancestors 'none'";

/** The hashed assets never change under their name; the page is revalidated every time. */
const ASSET_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * GET / (to the console), GET /console and every path under it (the single-page app's page,
 * its router draws the rest) and GET /console/assets/{file} (DESIGN.md §13).
 */
export async function registerConsoleRoutes(app: App, deps: ConsoleRouteDeps): Promise<void> {
  const basePath = new URL(deps.publicUrl).pathname.replace(/\/$/, "");
  const files = loadConsoleFiles(basePath);
  const built = () => {
    const found = files();
    if (!found) throw new AppError("SERVICE_UNAVAILABLE", "The console has not been built");
    return found;
  };

  app.get("/", { config: { auth: "public" }, schema: { hide: true } }, async (_request, reply) =>
    reply.redirect(`${basePath}/console`),
  );

  // In a scope of its own: the page's headers and compression apply to it, not to the API.
  await app.register(async (scope: App) => {
    scope.addHook("onRequest", async (_request, reply) => {
      reply
        .header("content-security-policy", CONSOLE_CSP)
        .header("x-content-type-options", "nosniff")
        .header("referrer-policy", "same-origin")
        .header("x-frame-options", "DENY");
    });
    await scope.register(compress, { global: true, threshold: 1024 });

    const send = (
      request: FastifyRequest,
      reply: FastifyReply,
      file: ConsoleFile,
      cacheControl: string,
    ) => {
      reply.header("etag", file.etag).header("cache-control", cacheControl);
      if (matchesEntityTag(request.headers["if-none-match"], file.etag)) {
        return reply.code(304).send();
      }
      return reply.type(file.type).send(file.body);
    };

    scope.get(
      "/console/assets/:file",
      {
        config: { auth: "public" },
        schema: { hide: true, params: z.object({ file: z.string().max(200) }) },
      },
      async (request, reply) => {
        const file = built().assets.get(request.params.file);
        if (!file) throw new AppError("NOT_FOUND", "No such console file");
        return send(request, reply, file, `public, max-age=${ASSET_MAX_AGE_SECONDS}, immutable`);
      },
    );

    const page = { config: { auth: "public" as const }, schema: { hide: true } };
    const sendPage = async (request: FastifyRequest, reply: FastifyReply) =>
      send(request, reply, built().page, "no-cache");
    scope.get("/console", page, sendPage);
    scope.get("/console/*", page, sendPage);
  });
}
