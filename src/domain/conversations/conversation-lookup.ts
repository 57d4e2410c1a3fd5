import { AppError, invalid } from "../../lib/errors.ts";
import { type Caller, mayUseAgent } from "../caller.ts";
import type { ConversationRepo } from "./conversation-repo.ts";

/**
 * The organization's conversation with this API id, for the reads addressed by conversation id
 * alone (GET /api/conversations/{id}, its webhook deliveries). Ids are unique per agent, so when
 * two agents of the organization use the same id the caller names the agent: 400 until it does.
 * Another organization's use of the id plays no part: unknown here is 404, as for any id; so
 * do the conversations of agents a key may not use (their existence is not told either).
 */
export async function findConversationOfOrganization(
  conversations: Pick<ConversationRepo, "findInOrganization">,
  caller: Pick<Caller, "organizationId" | "agentIds">,
  conversationId: string,
  agentId: string | undefined,
) {
  const rows = (
    await conversations.findInOrganization(caller.organizationId, conversationId, agentId)
  ).filter((row) => mayUseAgent(caller, row.conversation.agentId));
  const [found] = rows;
  if (!found) throw new AppError("CONVERSATION_NOT_FOUND", "Conversation not found");
  if (rows.length > 1) {
    throw invalid(
      `Several agents of this organization have a conversation ${conversationId}: add agentId to say which`,
      [{ path: "querystring.agentId", message: "is required: the id is used by several agents" }],
    );
  }
  return found;
}
