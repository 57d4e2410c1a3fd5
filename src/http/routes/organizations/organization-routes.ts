import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "../../../domain/accounts/passwords.ts";
import type { SignupService } from "../../../domain/accounts/signup-service.ts";
import type { OrganizationService } from "../../../domain/organizations/organization-service.ts";
import type { App } from "../../app-types.ts";
import { auditedBy, callerOf, originOf, sessionOf } from "../../plugins/auth.ts";
import {
  cookieSettingsOf,
  type SessionCookieSettings,
  setSessionCookie,
} from "../../plugins/session-cookie.ts";
import { sessionBody } from "../auth/auth-routes.ts";
import { organizationParams } from "../members/people-context.ts";

const organizationName = z.string().trim().min(1).max(100);

const organizationSettings = z.object({
  id: z.string(),
  name: z.string(),
  conversationRetentionDays: z
    .number()
    .int()
    .nullable()
    .describe("Days an idle conversation is kept before the daily sweep erases it; null: forever"),
  createdAt: z.string(),
});

const settingsChange = z
  .strictObject({
    name: organizationName.optional(),
    conversationRetentionDays: z
      .number()
      .int()
      .min(1)
      .max(36_500)
      .nullable()
      .optional()
      .describe(
        "Conversations idle (no new message) longer than this many days are erased by the " +
          "daily sweep; null keeps them forever",
      ),
  })
  .refine((body) => body.name !== undefined || body.conversationRetentionDays !== undefined, {
    message: "Give name or conversationRetentionDays",
  });

export type OrganizationRouteDeps = {
  people: { signup: SignupService };
  organizations: Pick<OrganizationService, "settingsOf" | "updateSettings">;
};

/**
 * Organizations made by people (any signed-in user's, or a newcomer's with SIGNUP=open), and
 * their own settings: read by every member, changed by owners and admins.
 */
export function registerOrganizationRoutes(
  app: App,
  deps: OrganizationRouteDeps,
  settings: SessionCookieSettings,
): void {
  const { signup } = deps.people;
  const cookies = cookieSettingsOf(settings);
  app.get(
    "/api/organizations/:id",
    {
      config: { auth: "key", permission: "members:read", organizationParam: "id" },
      schema: {
        operationId: "getOwnOrganization",
        tags: ["accounts"],
        "x-extension": true,
        summary: "The organization's name and conversation retention (any member)",
        params: organizationParams,
        response: { 200: organizationSettings },
        errors: { 403: "Not a member of this organization, or a key of another one" },
      },
    },
    async (request) => deps.organizations.settingsOf(callerOf(request).organizationId),
  );

  app.patch(
    "/api/organizations/:id",
    {
      config: { auth: "key", permission: "settings:write", organizationParam: "id" },
      schema: {
        operationId: "updateOwnOrganization",
        tags: ["accounts"],
        "x-extension": true,
        summary:
          "Rename the organization or change how long its conversations are kept (owners and admins)",
        params: organizationParams,
        body: settingsChange,
        response: { 200: organizationSettings },
        errors: {
          400: "An empty or too long name, a retention outside 1 to 36500 days, or nothing to change",
          403: "Not an owner or admin of this organization, a key with scopes, or a key of another one",
        },
      },
    },
    async (request) =>
      deps.organizations.updateSettings(
        callerOf(request).organizationId,
        request.body,
        auditedBy(request),
      ),
  );

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
      const created = await signup.createOrganization(
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
      const started = await signup.signup(request.body, originOf(request));
      setSessionCookie(reply, cookies, started);
      return reply.code(201).send(started.view);
    },
  );
}
