import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "../../../domain/accounts/passwords.ts";
import type { SignupService } from "../../../domain/accounts/signup-service.ts";
import type { App } from "../../app-types.ts";
import { originOf, sessionOf } from "../../plugins/auth.ts";
import { type CookieSettings, setSessionCookie } from "../../plugins/session-cookie.ts";
import { sessionBody } from "../auth/auth-routes.ts";

const organizationName = z.string().trim().min(1).max(100);

export type OrganizationRouteDeps = { signup: SignupService; cookies: CookieSettings };

/** Organizations made by people: any signed-in user's, or a newcomer's with SIGNUP=open. */
export function registerOrganizationRoutes(app: App, deps: OrganizationRouteDeps): void {
  app.post(
    "/api/organizations",
    {
      config: { auth: "session" },
      schema: {
        operationId: "createOwnOrganization",
        tags: ["accounts"],
        "x-extension": true,
        summary:
          "Make an organization whose owner is the signed-in user (active if the session had none)",
        body: z.object({ name: organizationName }),
        response: {
          201: z.object({ id: z.string(), name: z.string(), role: z.literal("owner") }),
        },
      },
    },
    async (request, reply) => {
      const created = await deps.signup.createOrganization(
        sessionOf(request),
        request.body.name,
        originOf(request),
      );
      return reply.code(201).send(created);
    },
  );

  app.post(
    "/api/auth/signup",
    {
      config: { auth: "public" },
      schema: {
        operationId: "signUp",
        tags: ["accounts"],
        "x-extension": true,
        summary:
          "With SIGNUP=open: make an account and its own organization, signed in (sets the cookie)",
        body: z.object({
          email: z.string().trim().max(254).pipe(z.email()),
          name: z.string().trim().min(1).max(100),
          password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
          organizationName: organizationName
            .optional()
            .describe('Default: "<name>\'s organization"'),
        }),
        response: { 201: sessionBody },
        errors: {
          400: "The password is shorter than 10 characters",
          403: "Sign-up is closed (SIGNUP=invite)",
          409: "An account with this e-mail exists",
        },
      },
    },
    async (request, reply) => {
      const started = await deps.signup.signup(request.body, originOf(request));
      setSessionCookie(reply, deps.cookies, started);
      return reply.code(201).send(started.view);
    },
  );
}
