import type { AuditActor } from "./accounts/audit-log.ts";

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
  /** Who acted, as the audit log records it. */
  actor: AuditActor;
  requestId: string;
};

/**
 * Whom an answer is for and charged to: a key's caller, or the organization of a public agent
 * for a visitor without a key (the public chat). A key's id, when there is one, puts the charges
 * within that key's monthly budget.
 */
export type AnswerCaller = Pick<Caller, "organizationId"> & { apiKeyId?: string | null };
