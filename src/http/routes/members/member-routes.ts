import { z } from "zod";
import { role } from "../../../domain/accounts/member-request.ts";
import type { MemberService } from "../../../domain/accounts/member-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import { memberParams, organizationParams, peopleContext } from "./people-context.ts";

const member = z.object({
  userId: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  role,
  joinedAt: z.string().describe("When the user became a member (ISO 8601)"),
});

export type MemberRouteDeps = { people: { members: MemberService } };

/** An organization's members: who they are, their roles, removal (DESIGN.md §10). */
export function registerMemberRoutes(app: App, deps: MemberRouteDeps): void {
  const { members } = deps.people;
  app.get(
    "/api/organizations/:id/members",
    {
      config: { auth: "key", permission: "members:read", organizationParam: "id" },
      schema: {
        operationId: "listMembers",
        tags: ["accounts"],
        "x-extension": true,
        summary: "The organization's members with their roles, oldest first",
        params: organizationParams,
        response: { 200: z.object({ data: z.array(member) }) },
        errors: { 403: "Not a member of this organization, or a key of another one" },
      },
    },
    async (request) => ({ data: await members.list(callerOf(request).organizationId) }),
  );

  app.patch(
    "/api/organizations/:id/members/:userId",
    {
      config: { auth: "key", permission: "members:write", organizationParam: "id" },
      schema: {
        operationId: "changeMemberRole",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Change a member's role; only an owner may give or take the owner role",
        params: memberParams,
        body: z.object({ role }),
        response: { 200: member },
        errors: {
          403: "Giving or taking the owner role without being an owner",
          404: "The user is not a member of this organization",
          409: "The organization's last owner cannot be demoted",
        },
      },
    },
    async (request) =>
      members.changeRole(peopleContext(request), request.params.userId, request.body.role),
  );

  app.delete(
    "/api/organizations/:id/members/:userId",
    {
      config: { auth: "key", permission: "members:write", organizationParam: "id" },
      schema: {
        operationId: "removeMember",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Remove a member (an owner or admin may remove themselves: leave)",
        params: memberParams,
        response: { 204: z.null().describe("Removed") },
        errors: {
          403: "Removing an owner without being an owner",
          404: "The user is not a member of this organization",
          409: "The organization's last owner cannot be removed",
        },
      },
    },
    async (request, reply) => {
      await members.remove(peopleContext(request), request.params.userId);
      reply.code(204);
    },
  );
}
