import { z } from "zod";
import type { InvitationService } from "../../../domain/accounts/invitation-service.ts";
import { role } from "../../../domain/accounts/member-request.ts";
import { PASSWORD_MAX_LENGTH } from "../../../domain/accounts/passwords.ts";
import type { App } from "../../app-types.ts";
import { callerOf, originOf } from "../../plugins/auth.ts";
import {
  cookieSettingsOf,
  type SessionCookieSettings,
  setSessionCookie,
} from "../../plugins/session-cookie.ts";
import { sessionBody } from "../auth/auth-routes.ts";
import { invitationParams, organizationParams, peopleContext } from "../members/people-context.ts";

const email = z.string().trim().max(254).pipe(z.email());

const pendingInvitation = z.object({
  id: z.string(),
  email: z.string(),
  role,
  invitedById: z.string().nullable().describe("The user who invited; null for the operator"),
  createdAt: z.string(),
  expiresAt: z.string(),
});

const issuedInvitation = z.object({
  id: z.string(),
  email: z.string(),
  role,
  expiresAt: z.string().describe("7 days after now (ISO 8601)"),
  acceptUrl: z.string().describe("The one-time link to accept; only shown here (and mailed)"),
  mail: z
    .enum(["sent", "failed", "disabled"])
    .describe(
      "sent: mailed; failed: the mail server refused it (the invitation stands, pass the link on); disabled: no SMTP_URL",
    ),
});

export type InvitationRouteDeps = { people: { invitations: InvitationService } };

/** Invitations to an organization and their acceptance (DESIGN.md §10). */
export function registerInvitationRoutes(
  app: App,
  deps: InvitationRouteDeps,
  settings: SessionCookieSettings,
): void {
  const { invitations } = deps.people;
  const cookies = cookieSettingsOf(settings);

  app.post(
    "/api/organizations/:id/invitations",
    {
      config: { auth: "key", permission: "members:write", organizationParam: "id" },
      schema: {
        operationId: "inviteMember",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Invite someone by e-mail (mailed when SMTP_URL is set; 7 days, single use)",
        params: organizationParams,
        body: z.object({ email, role }),
        response: { 201: issuedInvitation },
        errors: {
          403: "Inviting an owner without being an owner",
          409: "The e-mail is already a member",
        },
      },
    },
    async (request, reply) => {
      const issued = await invitations.invite(peopleContext(request), request.body);
      return reply.code(201).send(issued);
    },
  );

  app.get(
    "/api/organizations/:id/invitations",
    {
      config: { auth: "key", permission: "members:read", organizationParam: "id" },
      schema: {
        operationId: "listInvitations",
        tags: ["accounts"],
        "x-extension": true,
        summary: "The organization's pending invitations, newest first (never their links)",
        params: organizationParams,
        response: { 200: z.object({ data: z.array(pendingInvitation) }) },
        errors: { 403: "Not a member of this organization, or a key of another one" },
      },
    },
    async (request) => ({
      data: await invitations.listPending(callerOf(request).organizationId),
    }),
  );

  app.delete(
    "/api/organizations/:id/invitations/:invitationId",
    {
      config: { auth: "key", permission: "members:write", organizationParam: "id" },
      schema: {
        operationId: "revokeInvitation",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Revoke a pending invitation: its link stops working",
        params: invitationParams,
        response: { 204: z.null().describe("Revoked") },
        errors: { 404: "No pending invitation with this id in this organization" },
      },
    },
    async (request, reply) => {
      await invitations.revoke(peopleContext(request), request.params.invitationId);
      reply.code(204);
    },
  );

  app.post(
    "/api/auth/invitations/:token/accept",
    {
      config: { auth: "optional-session" },
      schema: {
        operationId: "acceptInvitation",
        tags: ["accounts"],
        "x-extension": true,
        summary:
          "Join the organization of an invitation: signed in as its e-mail, with that account's password, or as a new account",
        params: z.object({ token: z.string().min(1).max(200) }),
        body: z.object({
          password: z
            .string()
            .min(1)
            .max(PASSWORD_MAX_LENGTH)
            .optional()
            .describe("A new account's password (at least 10 characters), or the existing one's"),
          name: z.string().trim().min(1).max(100).optional().describe("A new account's name"),
        }),
        response: { 200: sessionBody },
        errors: {
          400: "The link is invalid, used, expired or revoked; or a password is missing or too short",
          401: "The existing account's password is wrong",
          403: "Signed in as another e-mail than the invitation's (or from another site's page)",
          409: "An account with the invitation's e-mail was made meanwhile: sign in first",
          429: "More than 10 failed logins for this e-mail or from this address in 15 minutes",
        },
      },
    },
    async (request, reply) => {
      const accepted = await invitations.accept(
        request.params.token,
        request.body,
        request.session,
        originOf(request),
      );
      if (accepted.started) setSessionCookie(reply, cookies, accepted.started);
      return accepted.view;
    },
  );
}
