import type { DeliveryStatus, MessageUsage, StoredSource } from "../../db/schema/index.ts";
import type { ContactSummary, ConversationRow, MessageRow } from "./conversation-repo.ts";

type ContactView = {
  id: string;
  email: string | null;
  phoneNumber: string | null;
  firstName: string | null;
  lastName: string | null;
  userId: string | null;
};

export type ConversationView = {
  id: string;
  agentId: string;
  visitorId: string;
  channel: string;
  channelExternalId: string | null;
  status: ConversationRow["status"];
  contact: ContactView | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
};

export type MessageView = {
  id: string;
  from: "human" | "agent";
  text: string;
  sources: StoredSource[];
  usage: MessageUsage | null;
  attachments: Array<{ url: string }>;
  metadata: Record<string, unknown>;
  isDraft: boolean;
  agentId: string | null;
  createdAt: string;
  /** What the platform did with a message sent through a channel (absent elsewhere). */
  delivery?: MessageDelivery;
};

export type MessageDelivery = {
  status: DeliveryStatus;
  platformMessageId: string | null;
  error: string | null;
};

export function toConversationView(
  conversation: ConversationRow,
  contact: ContactSummary | null,
): ConversationView {
  return {
    id: conversation.externalId,
    agentId: conversation.agentId,
    visitorId: conversation.visitorId,
    channel: conversation.channel,
    channelExternalId: conversation.channelExternalId,
    status: conversation.status,
    contact: contact
      ? {
          id: contact.id,
          email: contact.email,
          phoneNumber: contact.phoneNumber,
          firstName: contact.firstName,
          lastName: contact.lastName,
          userId: contact.externalUserId,
        }
      : null,
    metadata: conversation.metadata,
    createdAt: conversation.createdAt.toISOString(),
    updatedAt: conversation.updatedAt.toISOString(),
  };
}

export function toMessageView(
  message: MessageRow & { delivery?: MessageDelivery | null },
): MessageView {
  return {
    id: message.id,
    from: message.from,
    text: message.text,
    sources: message.sources,
    usage: message.usage,
    attachments: message.attachments,
    metadata: message.metadata,
    isDraft: message.isDraft,
    agentId: message.agentId,
    createdAt: message.createdAt.toISOString(),
    ...(message.delivery ? { delivery: message.delivery } : {}),
  };
}
