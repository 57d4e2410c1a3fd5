import { AppError, invalid, unauthorized } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AgentRepo } from "../agents/agent-repo.ts";
import type { Caller } from "../caller.ts";
import type { AgentMessageRequest } from "./agent-message-request.ts";
import type { ContactRepo } from "./contact-repo.ts";
import { type ConversationTurns, LOCAL_CHANNELS } from "./conversation-turns.ts";

export type AgentMessageResponse = {
  messageId: string;
  conversationId: string;
  visitorId: string;
  status: string;
};

/**
 * The one answer to a caller without a key whose conversationId is not a conversation it may add
 * to, whether the id is unknown, another visitor's, or an integration's (crmchatsappai, whatsapp,
 * api): the answer never tells which.
 */
export const ANONYMOUS_CONVERSATION_REFUSED =
  "Without an API key, send no conversationId to start a conversation, or continue one started without a key, with its visitorId";

/**
 * query-agent: appends a message written by the agent (an integration's or a person's words) to
 * a conversation, with no model call and nothing billed. Without an API key it works only for a
 * public agent, for non-draft messages without contact data on its own channels (website, form,
 * dashboard, api), and either starts a conversation (its id generated) or continues one that was
 * started that way, with the visitorId it was started with.
 */
export function createAgentMessageService(deps: {
  agents: Pick<AgentRepo, "findByIdInAnyOrganization">;
  contacts: Pick<ContactRepo, "findById">;
  turns: ConversationTurns;
}) {
  return {
    async append(
      caller: Caller | null,
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
        const channel = request.metadata?.channel ?? request.channel;
        if (request.channelExternalId !== undefined || (channel && !LOCAL_CHANNELS.has(channel))) {
          throw unauthorized(
            "Without an API key, messages go only to website, form, dashboard or api conversations, without channelExternalId",
          );
        }
      }
      const organizationId = agent.organizationId;
      const target = await deps.turns.resolveTarget(organizationId, agent.id, {
        conversationId: request.conversationId,
        visitorId: request.visitorId,
        channel: request.metadata?.channel ?? request.channel,
        channelExternalId: request.channelExternalId,
      });
      if (
        !caller &&
        request.conversationId !== undefined &&
        !(target.existing?.startedAnonymously && request.visitorId === target.existing.visitorId)
      ) {
        throw unauthorized(ANONYMOUS_CONVERSATION_REFUSED);
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
        anonymous: !caller,
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
