import { notFound, unauthorized } from "../../lib/errors.ts";
import type { Caller } from "../caller.ts";
import type { AnnotationFilters, AnnotationRepo, MessageTarget } from "./annotation-repo.ts";

type AccessRepo = Pick<
  AnnotationRepo,
  "findMessageTarget" | "findAgentTarget" | "findOrganizationOf"
>;

const KEY_REQUIRED = "A valid API key of the organization is required unless the agent is public";

/**
 * The spec's optional authentication in one place. A presented key always binds the caller to
 * its organization (a key of organization B never reaches organization A's public agents);
 * without a key, only what belongs to a public agent is reachable.
 */
export function createAnnotationAccess(repo: AccessRepo) {
  return {
    /** The message to annotate, once the caller may annotate it (404 absent, 401 refused). */
    async messageToAnnotate(caller: Caller | null, messageId: string): Promise<MessageTarget> {
      const target = await repo.findMessageTarget(messageId);
      if (!target) throw notFound(`Message ${messageId} not found`);
      if (caller ? caller.organizationId !== target.organizationId : !isPublic(target)) {
        throw unauthorized(caller ? "The message belongs to another organization" : KEY_REQUIRED);
      }
      return target;
    },

    /** The organization whose annotations a list request reads. */
    async listScope(caller: Caller | null, filters: AnnotationFilters): Promise<string> {
      return caller ? keyedScope(caller.organizationId, filters) : anonymousScope(filters);
    },

    /** The annotation's organization, once it is the caller's (404 absent, 401 foreign). */
    async ownedAnnotation(caller: Caller, annotationId: string) {
      const organizationId = await repo.findOrganizationOf(annotationId);
      if (!organizationId) throw notFound(`Annotation ${annotationId} not found`);
      if (organizationId !== caller.organizationId) {
        throw unauthorized("The annotation belongs to another organization");
      }
      return organizationId;
    },
  };

  /**
   * A keyed list may filter by anything of its own organization; a foreign agent or message id
   * is refused. A conversation id is only ever looked up within the organization (clients choose
   * them, so another organization may use the same one): it filters and never refuses.
   */
  async function keyedScope(organizationId: string, filters: AnnotationFilters) {
    const owners = await Promise.all([
      filters.agentId ? repo.findAgentTarget(filters.agentId).then((a) => a?.organizationId) : null,
      filters.messageId
        ? repo.findMessageTarget(filters.messageId).then((m) => m?.organizationId)
        : null,
    ]);
    if (owners.some((owner) => owner && owner !== organizationId)) {
      throw unauthorized("The filter names an agent or message of another organization");
    }
    return organizationId;
  }

  async function anonymousScope(filters: AnnotationFilters) {
    if (!filters.agentId && !filters.messageId) throw unauthorized(KEY_REQUIRED);
    const organizations: string[] = [];
    if (filters.agentId) {
      const agent = await repo.findAgentTarget(filters.agentId);
      if (agent?.visibility !== "public") throw unauthorized(KEY_REQUIRED);
      organizations.push(agent.organizationId);
    }
    if (filters.messageId) {
      const message = await repo.findMessageTarget(filters.messageId);
      if (!message || !isPublic(message)) throw unauthorized(KEY_REQUIRED);
      organizations.push(message.organizationId);
    }
    // Two public targets of different organizations share no annotation: the filters return
    // nothing, whichever organization scopes the query.
    return organizations[0]!;
  }
}

function isPublic(target: MessageTarget): boolean {
  return target.ownerAgentVisibility === "public";
}
