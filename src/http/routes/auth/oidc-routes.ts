import { z } from "zod";
import type { OidcService } from "../../../domain/accounts/oidc-service.ts";
import type { App } from "../../app-types.ts";
import { originOf } from "../../plugins/auth.ts";
import {
  cookieSettingsOf,
  type SessionCookieSettings,
  setSessionCookie,
} from "../../plugins/session-cookie.ts";
import { oidcRefusalPage } from "./oidc-refusal-page.ts";

/** Binds a sign-in to the browser that started it, for the provider's round trip only. */
const STATE_COOKIE = "agentdesk_oidc_state";
const STATE_COOKIE_MAX_AGE_SECONDS = 10 * 60;
const REFUSAL_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const answer = z.string().max(4096).optional();

export type OidcRouteDeps = { oidc: OidcService };

export type OidcSettings = SessionCookieSettings & {
  /** PUBLIC_URL: the console is at PUBLIC_URL/console. */
  publicUrl: string;
};

/** Single sign-on with the operator's OpenID provider (DESIGN.md §10 "OIDC SSO"). */
export function registerOidcRoutes(app: App, deps: OidcRouteDeps, settings: OidcSettings): void {
  const { oidc } = deps;
  const cookies = cookieSettingsOf(settings);
  const consoleUrl = `${settings.publicUrl}/console`;
  const stateCookie = {
    httpOnly: true,
    sameSite: "lax" as const,
    // As the browser sees it: behind a proxy, PUBLIC_URL's path comes first.
    path: `${new URL(settings.publicUrl).pathname.replace(/\/$/, "")}/api/auth/oidc`,
    secure: cookies.secure,
  };

  app.get(
    "/api/auth/providers",
    {
      config: { auth: "public" },
      schema: {
        operationId: "listSignInProviders",
        tags: ["accounts"],
        "x-extension": true,
        summary: "The ways to sign in here: whether single sign-on (OIDC) is on",
        response: {
          200: z.object({
            sso: z.object({
              enabled: z.boolean().describe("Whether GET /api/auth/oidc/login starts a sign-in"),
            }),
          }),
        },
      },
    },
    async () => ({ sso: { enabled: oidc.enabled } }),
  );

  app.get(
    "/api/auth/oidc/login",
    {
      config: { auth: "public" },
      schema: {
        operationId: "startOidcLogin",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Start single sign-on: redirects the browser to the OpenID provider",
        response: {
          302: z
            .null()
            .describe(
              "To the provider's authorization endpoint (Location); sets a short-lived cookie that binds the sign-in to this browser",
            ),
        },
        errors: {
          404: "Single sign-on is not configured (OIDC_ISSUER is not set)",
          502: "The OpenID provider could not be reached or did not describe itself",
        },
      },
    },
    async (_request, reply) => {
      const started = await oidc.begin();
      reply.setCookie(STATE_COOKIE, started.state, {
        ...stateCookie,
        maxAge: STATE_COOKIE_MAX_AGE_SECONDS,
      });
      return reply.redirect(started.url, 302);
    },
  );

  app.get(
    "/api/auth/oidc/callback",
    {
      config: { auth: "public" },
      schema: {
        operationId: "finishOidcLogin",
        tags: ["accounts"],
        "x-extension": true,
        summary:
          "Where the OpenID provider sends the browser back: signs in and redirects to /console",
        querystring: z.object({
          code: answer,
          state: answer,
          iss: answer,
          error: answer,
          error_description: answer,
        }),
        // The refusal is a page for the person the provider sent here, not the JSON envelope.
        produces: ["text/html"],
        response: {
          302: z
            .null()
            .describe("Signed in: the agentdesk_session cookie is set; Location is /console"),
          403: z
            .string()
            .describe(
              "Refused, as an HTML page that says why: the e-mail is not verified, there is no account or invitation for it, its domain is not allowed, the sign-in expired or was started in another browser, or the provider refused",
            ),
        },
        errors: {
          404: "Single sign-on is not configured (OIDC_ISSUER is not set)",
          502: "The OpenID provider could not be reached",
        },
      },
    },
    async (request, reply) => {
      const query = new URL(request.url, "http://callback.invalid").searchParams;
      const outcome = await oidc.finish(
        { query, boundState: request.cookies[STATE_COOKIE] ?? null },
        originOf(request),
      );
      reply.clearCookie(STATE_COOKIE, stateCookie);
      if (!outcome.signedIn) {
        return reply
          .code(403)
          .header("content-security-policy", REFUSAL_PAGE_CSP)
          .type("text/html; charset=utf-8")
          .send(oidcRefusalPage(outcome.message, consoleUrl));
      }
      setSessionCookie(reply, cookies, outcome.session);
      return reply.redirect(consoleUrl, 302);
    },
  );
}
