import { z } from "zod";
import type { AccountService } from "../../../domain/accounts/account-service.ts";
import { PASSWORD_MAX_LENGTH } from "../../../domain/accounts/passwords.ts";
import { ROLES } from "../../../domain/accounts/permissions.ts";
import type { App } from "../../app-types.ts";
import { originOf, sessionOf } from "../../plugins/auth.ts";
import {
  clearSessionCookie,
  cookieSettingsOf,
  type SessionCookieSettings,
  setSessionCookie,
} from "../../plugins/session-cookie.ts";

const email = z.string().trim().max(254).pipe(z.email());
const password = z.string().min(1).max(PASSWORD_MAX_LENGTH);
const token = z.string().min(1).max(200);

export const sessionBody = z.object({
  user: z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() }),
  organizations: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES) })),
});
const sessionWithActive = sessionBody.extend({ activeOrganizationId: z.string().nullable() });

export type AuthRouteDeps = { accounts: AccountService };

/** Login, logout, the session, the first owner's setup and password resets (DESIGN.md §10). */
export function registerAuthRoutes(
  app: App,
  deps: AuthRouteDeps,
  settings: SessionCookieSettings,
): void {
  const { accounts } = deps;
  const cookies = cookieSettingsOf(settings);

  app.post(
    "/api/auth/login",
    {
      config: { auth: "public" },
      schema: {
        operationId: "login",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Sign in with e-mail and password; sets the agentdesk_session cookie",
        body: z.object({ email, password }),
        response: { 200: sessionBody },
        errors: {
          401: "The e-mail or the password is wrong (the same answer for both)",
          429: "More than 10 failed logins for this e-mail or from this address in 15 minutes",
        },
      },
    },
    async (request, reply) => {
      const started = await accounts.login(request.body, originOf(request));
      setSessionCookie(reply, cookies, started);
      return started.view;
    },
  );

  app.post(
    "/api/auth/logout",
    {
      config: { auth: "optional-session" },
      schema: {
        operationId: "logout",
        tags: ["accounts"],
        "x-extension": true,
        summary: "End the session (everywhere at once) and clear its cookie",
        response: { 204: z.null().describe("Done") },
        errors: { 403: "Signed in, but sent from another site's page (Origin)" },
      },
    },
    async (request, reply) => {
      if (request.session) await accounts.logout(request.session, originOf(request));
      clearSessionCookie(reply, cookies);
      reply.code(204);
    },
  );

  app.get(
    "/api/auth/session",
    {
      config: { auth: "session" },
      schema: {
        operationId: "getSession",
        tags: ["accounts"],
        "x-extension": true,
        summary: "The signed-in user, their organizations and the active one",
        response: { 200: sessionWithActive },
      },
    },
    async (request) => accounts.view(sessionOf(request)),
  );

  app.patch(
    "/api/auth/session",
    {
      config: { auth: "session" },
      schema: {
        operationId: "switchOrganization",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Choose the organization requests act in when they send no X-Organization-Id",
        body: z.object({ activeOrganizationId: z.string().min(1).max(100) }),
        response: { 200: sessionWithActive },
        errors: { 403: "Not a member of that organization" },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      await accounts.switchOrganization(session, request.body.activeOrganizationId);
      return accounts.view({ ...session, activeOrganizationId: request.body.activeOrganizationId });
    },
  );

  app.post(
    "/api/auth/setup",
    {
      config: { auth: "public" },
      schema: {
        operationId: "setupFirstOwner",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Make the first owner with the one-time setup link's token",
        body: z.object({ token, email, name: z.string().trim().min(1).max(100), password }),
        response: { 200: sessionBody },
        errors: { 400: "The token is invalid, used or expired, or the password too short" },
      },
    },
    async (request, reply) => {
      const started = await accounts.setup(request.body, originOf(request));
      setSessionCookie(reply, cookies, started);
      return started.view;
    },
  );

  app.post(
    "/api/auth/password-reset",
    {
      config: { auth: "public" },
      schema: {
        operationId: "requestPasswordReset",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Mail a password reset link (the same answer whether the e-mail is known or not)",
        body: z.object({ email }),
        response: { 202: z.object({ accepted: z.literal(true) }) },
        errors: { 503: "This server sends no e-mail (SMTP_URL is not set)" },
      },
    },
    async (request, reply) => {
      await accounts.requestPasswordReset(request.body.email, originOf(request));
      return reply.code(202).send({ accepted: true });
    },
  );

  app.post(
    "/api/auth/password-reset/:token",
    {
      config: { auth: "public" },
      schema: {
        operationId: "resetPassword",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Set a new password with a reset link (once, within the hour); ends every session",
        params: z.object({ token }),
        body: z.object({ password }),
        response: { 204: z.null().describe("Done") },
        errors: { 400: "The link is invalid, used or expired, or the password too short" },
      },
    },
    async (request, reply) => {
      await accounts.resetPassword(request.params.token, request.body.password, originOf(request));
      reply.code(204);
    },
  );
}
