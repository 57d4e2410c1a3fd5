import { AppError } from "../lib/errors.ts";
import type { AuditActor, AuditOrigin } from "./accounts/audit-log.ts";

/**
 * Who is calling: the organization, user and API key (or session) behind a request, and the
 * request's id for the logs. Every service method that acts for a caller takes one; `null`
 * where the spec lets anonymous callers in (public agents and datastores).
 */
export type Caller = {
  organizationId: string;
  userId: string;
  /** The key that authenticated the request; null for a signed-in session. */
  apiKeyId: string | null;
  /** The only agents a scoped key may use; null is every agent of the organization. */
  agentIds: readonly string[] | null;
  /** Who acted, and from where, as the audit log records it. */
  actor: AuditActor;
  origin?: AuditOrigin;
  requestId: string;
};

/**
 * Whom an answer is for and charged to: a key's caller, or the organization of a public agent
 * for a visitor without a key (the public chat). A key's id, when there is one, puts the charges
 * within that key's monthly budget.
 */
export type AnswerCaller = Pick<Caller, "organizationId"> &
  Partial<Pick<Caller, "apiKeyId" | "agentIds">>;

/** Whether the caller may see or use the agent: any, unless its key names the only ones. */
export function mayUseAgent(caller: Partial<Pick<Caller, "agentIds">>, agentId: string | null) {
  const allowed = caller.agentIds ?? null;
  return allowed === null || (agentId !== null && allowed.includes(agentId));
}

/** 403, as the auth plugin answers an agent of a route's path outside the key's agents. */
export function refuseOtherAgent(caller: Partial<Pick<Caller, "agentIds">>, agentId: string): void {
  if (!mayUseAgent(caller, agentId)) {
    throw new AppError("FORBIDDEN", `This key cannot use agent ${agentId}`);
  }
}
