import { AppError, invalid, unauthorized } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AgentRepo } from "../agents/agent-repo.ts";
import type { ContactInput, ContactRepo } from "./contact-repo.ts";
import type { Channel, ConversationTurns } from "./conversation-turns.ts";

/** The body of POST /api/agents/{id}/query-agent, validated. */
export type AgentMessageRequest = {
  query: string;
  conversationId?: string;
  visitorId?: string;
  channel?: Channel;
  channelExternalId?: string;
  isDraft?: boolean;
  contactId?: string;
  contact?: ContactInput;
  metadata?: { contextDataAgents?: string; channel?: Channel };
};

export type AgentMessageResponse = {
  messageId: string;
  conversationId: string;
  visitorId: string;
  status: string;
};

/**
 * query-agent: appends a message written by the agent (an integration's or a person's words) to
 * a conversation, with no model call and nothing billed. Without an API key it works only for a
 * public agent, for non-draft messages without contact data, and for an existing conversation
 * only when the request carries that conversation's visitorId.
 */
export function createAgentMessageService(deps: {
  agents: Pick<AgentRepo, "findByIdInAnyOrganization">;
  contacts: Pick<ContactRepo, "findById">;
  turns: ConversationTurns;
}) {
  return {
    async append(
      caller: { organizationId: string } | null,
      agentId: string,
      request: AgentMessageRequest,
    ): Promise<AgentMessageResponse> {
      const agent = await deps.agents.findByIdInAnyOrganization(agentId);
      if (!agent || (caller && agent.organizationId !== caller.organizationId)) {
        throw new AppError("NOT_FOUND", "Agent not found");
      }
      if (!caller) {
        if (request.isDraft) throw unauthorized("Creating a draft requires an API key");
        if (agent.visibility !== "public") {
          throw unauthorized("This agent is private: an API key of its organization is required");
        }
        if (request.contactId || request.contact) {
          throw unauthorized("Attaching a contact requires an API key");
        }
      }
      const organizationId = agent.organizationId;
      const target = await deps.turns.resolveTarget(organizationId, agent.id, {
        conversationId: request.conversationId,
        visitorId: request.visitorId,
        channel: request.metadata?.channel ?? request.channel,
        channelExternalId: request.channelExternalId,
      });
      if (!caller && target.existing && request.visitorId !== target.existing.visitorId) {
        throw unauthorized(
          "Adding to an existing conversation without an API key requires its visitorId",
        );
      }
      if (request.contactId && !(await deps.contacts.findById(organizationId, request.contactId))) {
        throw invalid(`Contact ${request.contactId} does not exist in this organization`, [
          { path: "body.contactId", message: "is not a contact of this organization" },
        ]);
      }
      const messageId = newId();
      const conversation = await deps.turns.recordTurn({
        organizationId,
        agentId: agent.id,
        target,
        status: "keep",
        contact: request.contact,
        contactId: request.contactId,
        messages: [
          {
            id: messageId,
            from: "agent",
            text: request.query,
            isDraft: request.isDraft ?? false,
            metadata: {
              origin: "query-agent",
              ...(request.metadata?.contextDataAgents
                ? { contextDataAgents: request.metadata.contextDataAgents }
                : {}),
            },
            createdAt: new Date(),
          },
        ],
      });
      return {
        messageId,
        conversationId: conversation.externalId,
        visitorId: conversation.visitorId,
        status: conversation.status,
      };
    },
  };
}

export type AgentMessageService = ReturnType<typeof createAgentMessageService>;
