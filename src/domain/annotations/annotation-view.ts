import type {
  ConversationMessageRow,
  ConversationSummary,
} from "./annotation-conversation-repo.ts";
import type { AnnotationRecord } from "./annotation-repo.ts";

export type AnnotationView = ReturnType<typeof toAnnotationView>;

/** The spec's Annotation object, as create, list, get and update return it. */
export function toAnnotationView(record: AnnotationRecord) {
  return {
    id: record.id,
    messageId: record.messageId,
    conversationId: record.conversationExternalId,
    agentId: record.agentId,
    organizationId: record.organizationId,
    comment: record.comment,
    sentiment: record.sentiment,
    status: record.status,
    createdById: record.createdById,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    createdBy: record.createdById ? { email: record.createdByEmail } : null,
    tags: record.tags.map((tag) => ({ tag: { id: tag.id, name: tag.name } })),
  };
}

/**
 * The Annotation as an anonymous caller (a visitor of a public agent) sees it: the reviewer's
 * email is personal data of the organization's staff, so it is not shown.
 */
export function toAnonymousAnnotationView(record: AnnotationRecord): AnnotationView {
  const view = toAnnotationView(record);
  return { ...view, createdBy: view.createdBy ? { email: null } : null };
}

/**
 * A message of the conversation shown with an annotation. `contact` is the conversation's
 * contact: the customer the message was exchanged with.
 */
export function toConversationMessageView(
  message: ConversationMessageRow,
  contact: ConversationSummary["contact"],
) {
  return {
    id: message.id,
    content: message.content,
    from: message.from,
    createdAt: message.createdAt.toISOString(),
    agent: message.agent,
    contact,
    annotation: message.annotation,
  };
}

export function toConversationView(
  conversation: ConversationSummary,
  messages: ConversationMessageRow[],
) {
  return {
    id: conversation.id,
    agentId: conversation.agentId,
    visitorId: conversation.visitorId,
    channel: conversation.channel,
    status: conversation.status,
    createdAt: conversation.createdAt.toISOString(),
    updatedAt: conversation.updatedAt.toISOString(),
    contact: conversation.contact,
    messages: messages.map((message) => toConversationMessageView(message, conversation.contact)),
  };
}
