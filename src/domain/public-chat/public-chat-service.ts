import { AppError, notFound } from "../../lib/errors.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import type { AgentService } from "../agents/agent-service.ts";
import type { ConversationRepo, ConversationRow } from "../conversations/conversation-repo.ts";
import type { VisitorConversation } from "../events/event-streams.ts";
import type { PreparedQuery, QueryService } from "../query/query-service.ts";
import type {
  PublicAgentProfile,
  PublicChatRequest,
  PublicConversation,
} from "./public-chat-request.ts";

/** The channel of every conversation the public chat starts. */
const PUBLIC_CHAT_CHANNEL = "website";

// One answer for a private agent and an unknown id: nothing tells them apart.
const agentNotFound = () => notFound("Agent not found");
// One answer for an unknown conversation id and another visitor's.
const conversationNotFound = () => new AppError("CONVERSATION_NOT_FOUND", "Conversation not found");

/**
 * The public chat: a visitor without an API key talks to a public agent through the query
 * endpoint's pipeline, charged to the agent's organization. Conversations it starts are bound to
 * the visitor id that started them; a visitor reads and continues only its own.
 */
type AnsweredQuery = Extract<PreparedQuery, { kind: "answer" }>;

export type PublicChatDeps = {
  agents: Pick<AgentService, "findPublic">;
  conversations: Pick<ConversationRepo, "findOfAgent" | "allMessages">;
  query: Pick<QueryService, "prepare">;
};

export function createPublicChatService(deps: PublicChatDeps) {
  async function requirePublicAgent(agentId: string): Promise<AgentRow> {
    const agent = await deps.agents.findPublic(agentId);
    if (!agent) throw agentNotFound();
    return agent;
  }

  /** The visitor's conversation of the agent, started through the public chat. */
  async function requireOwnConversation(
    agent: AgentRow,
    conversationId: string,
    visitorId: string,
  ): Promise<ConversationRow> {
    const conversation = await deps.conversations.findOfAgent(
      agent.organizationId,
      agent.id,
      conversationId,
    );
    if (
      !conversation?.startedAnonymously ||
      conversation.channel !== PUBLIC_CHAT_CHANNEL ||
      conversation.visitorId !== visitorId
    ) {
      throw conversationNotFound();
    }
    return conversation;
  }

  return {
    async profile(agentId: string): Promise<PublicAgentProfile> {
      const agent = await requirePublicAgent(agentId);
      return {
        id: agent.id,
        name: agent.name,
        description: agent.description,
        iconUrl: agent.iconUrl,
      };
    },

    /**
     * Whether a page of this origin may use the agent's public chat: any origin when the agent
     * lists none. A private or unknown agent answers as one without a list, so a refusal never
     * tells that a private agent exists.
     */
    async originAllowed(agentId: string, origin: string): Promise<boolean> {
      const agent = await deps.agents.findPublic(agentId);
      return !agent || agent.allowedOrigins.length === 0 || agent.allowedOrigins.includes(origin);
    },

    /** Checks the question like the query endpoint does (402 first), ready to run or stream. */
    async prepare(agentId: string, request: PublicChatRequest): Promise<AnsweredQuery> {
      const agent = await requirePublicAgent(agentId);
      if (request.conversationId !== undefined) {
        await requireOwnConversation(agent, request.conversationId, request.visitorId);
      }
      const prepared = await deps.query.prepare(
        { organizationId: agent.organizationId },
        agent.id,
        {
          query: request.query,
          streaming: request.streaming,
          visitorId: request.visitorId,
          conversationId: request.conversationId,
          channel: PUBLIC_CHAT_CHANNEL,
        },
        { anonymous: true },
      );
      // Conversational mode answers on the api channel only; the website channel never waits.
      if (prepared.kind === "queued") throw new Error("The public chat was queued an answer");
      return prepared;
    },

    /**
     * Checks that the message is an answer of the agent in a conversation this visitor started
     * here, before a visitor annotates it; else the conversation's or the message's 404.
     */
    async requireOwnAnswer(
      agentId: string,
      conversationId: string,
      visitorId: string,
      messageId: string,
    ): Promise<void> {
      const agent = await requirePublicAgent(agentId);
      const conversation = await requireOwnConversation(agent, conversationId, visitorId);
      const messages = await deps.conversations.allMessages(agent.organizationId, conversation.id);
      const answer = messages.find((message) => message.id === messageId);
      if (answer?.from !== "agent" || answer.isDraft) {
        throw notFound("Message not found");
      }
    },

    /** The visitor's own conversation, which its live events stream follows; else a 404. */
    async visitorConversation(
      agentId: string,
      conversationId: string,
      visitorId: string,
    ): Promise<VisitorConversation> {
      const agent = await requirePublicAgent(agentId);
      const conversation = await requireOwnConversation(agent, conversationId, visitorId);
      return {
        organizationId: agent.organizationId,
        agentId: agent.id,
        conversationId: conversation.externalId,
      };
    },

    /** The visitor's conversation as the widget shows it again: oldest first, no drafts. */
    async conversation(
      agentId: string,
      conversationId: string,
      visitorId: string,
    ): Promise<PublicConversation> {
      const agent = await requirePublicAgent(agentId);
      const conversation = await requireOwnConversation(agent, conversationId, visitorId);
      const messages = await deps.conversations.allMessages(agent.organizationId, conversation.id);
      return {
        conversationId: conversation.externalId,
        messages: messages
          .filter((message) => !message.isDraft)
          .map((message) => ({
            id: message.id,
            from: message.from,
            text: message.text,
            sources: message.sources.map(({ source, chunk }) => ({ source, chunk })),
            createdAt: message.createdAt.toISOString(),
          })),
      };
    },
  };
}

export type PublicChatService = ReturnType<typeof createPublicChatService>;
