import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, annotations, contacts, conversations, messages } from "../../db/schema/index.ts";

export type ConversationSummary = {
  /** The id clients know the conversation by (its externalId). */
  id: string;
  agentId: string;
  visitorId: string;
  channel: string;
  status: "UNRESOLVED" | "RESOLVED" | "HUMAN_REQUESTED";
  createdAt: Date;
  updatedAt: Date;
  contact: { id: string; phoneNumber: string | null; email: string | null } | null;
};

export type ConversationMessageRow = {
  id: string;
  content: string;
  from: "human" | "agent";
  createdAt: Date;
  agent: { id: string; name: string; iconUrl: string | null } | null;
  annotation: { id: string; sentiment: "good" | "bad" } | null;
};

/** The conversation around an annotated message, as a reviewer reads it. */
export function createAnnotationConversationRepo(db: Db) {
  return {
    async findConversation(
      organizationId: string,
      conversationId: string,
      tx: Db = db,
    ): Promise<ConversationSummary | null> {
      const [row] = await tx
        .select({
          id: conversations.externalId,
          agentId: conversations.agentId,
          visitorId: conversations.visitorId,
          channel: conversations.channel,
          status: conversations.status,
          createdAt: conversations.createdAt,
          updatedAt: conversations.updatedAt,
          contactId: contacts.id,
          contactPhoneNumber: contacts.phoneNumber,
          contactEmail: contacts.email,
        })
        .from(conversations)
        .leftJoin(contacts, eq(contacts.id, conversations.contactId))
        .where(
          and(
            eq(conversations.organizationId, organizationId),
            eq(conversations.id, conversationId),
          ),
        );
      if (!row) return null;
      const { contactId, contactPhoneNumber, contactEmail, ...conversation } = row;
      return {
        ...conversation,
        contact: contactId
          ? { id: contactId, phoneNumber: contactPhoneNumber, email: contactEmail }
          : null,
      };
    },

    /** Every message of the conversation, oldest first, each with its agent and annotation. */
    async listMessages(
      organizationId: string,
      conversationId: string,
      tx: Db = db,
    ): Promise<ConversationMessageRow[]> {
      const rows = await tx
        .select({
          id: messages.id,
          content: messages.text,
          from: messages.from,
          createdAt: messages.createdAt,
          agentId: agents.id,
          agentName: agents.name,
          agentIconUrl: agents.iconUrl,
          annotationId: annotations.id,
          annotationSentiment: annotations.sentiment,
        })
        .from(messages)
        .leftJoin(agents, eq(agents.id, messages.agentId))
        .leftJoin(annotations, eq(annotations.messageId, messages.id))
        .where(
          and(
            eq(messages.organizationId, organizationId),
            eq(messages.conversationId, conversationId),
          ),
        )
        // A question and its answer stored in one transaction share a timestamp: the question
        // comes first.
        .orderBy(asc(messages.createdAt), sql`${messages.from} = 'agent'`, asc(messages.id));
      return rows.map((row) => ({
        id: row.id,
        content: row.content,
        from: row.from,
        createdAt: row.createdAt,
        // A customer's message is not the agent's, whichever agent the conversation is with.
        agent:
          row.from === "agent" && row.agentId
            ? { id: row.agentId, name: row.agentName!, iconUrl: row.agentIconUrl }
            : null,
        annotation:
          row.annotationId && row.annotationSentiment
            ? { id: row.annotationId, sentiment: row.annotationSentiment }
            : null,
      }));
    },
  };
}

export type AnnotationConversationRepo = ReturnType<typeof createAnnotationConversationRepo>;
