import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { PeopleContext } from "../../../domain/accounts/member-service.ts";
import { callerOf, originOf } from "../../plugins/auth.ts";

const id = z.string().min(1).max(64);
export const organizationParams = z.object({ id });
export const memberParams = z.object({ id, userId: id });
export const invitationParams = z.object({ id, invitationId: id });

/** Who changes the organization's people: the caller, its role, and where it came from. */
export function peopleContext(request: FastifyRequest): PeopleContext {
  const caller = callerOf(request);
  return {
    organizationId: caller.organizationId,
    userId: caller.userId,
    role: request.auth?.role ?? null,
    actor: caller.actor,
    origin: originOf(request),
  };
}
