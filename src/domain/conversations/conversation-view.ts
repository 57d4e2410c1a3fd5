import type { DeliveryStatus, MessageUsage, StoredSource } from "../../db/schema/index.ts";
import type {
  ContactSummary,
  ConversationRow,
  MessageRow,
  NewMessageRow,
} from "./conversation-repo.ts";

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
  /** False while a person handles the conversation: no AI answer is given in it. */
  aiEnabled: boolean;
  /** The member handling it. */
  assignee: PersonView | null;
  contact: ContactView | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
};

export type PersonView = { id: string; email: string | null; name: string | null };

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
  /** The agent's version whose fields wrote this AI answer; null for any other message. */
  agentVersion: number | null;
  createdAt: string;
  /** Who wrote an operator's reply (a member, or the key's name); absent for the AI's answers. */
  user?: PersonView;
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
  assignee: PersonView | null = null,
): ConversationView {
  return {
    id: conversation.externalId,
    agentId: conversation.agentId,
    visitorId: conversation.visitorId,
    channel: conversation.channel,
    channelExternalId: conversation.channelExternalId,
    status: conversation.status,
    aiEnabled: conversation.aiEnabled,
    assignee: assignee?.id ? assignee : null,
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

/** The operator who wrote a message, as stored in its metadata by an operator's reply. */
function operatorOf(metadata: Record<string, unknown>): PersonView | null {
  const operator = metadata.operator as
    | { id?: unknown; email?: unknown; name?: unknown }
    | undefined;
  if (!operator || typeof operator.id !== "string") return null;
  return {
    id: operator.id,
    email: typeof operator.email === "string" ? operator.email : null,
    name: typeof operator.name === "string" ? operator.name : null,
  };
}

/** A message about to be stored, as the API will show it: its columns' defaults filled in. */
export function toNewMessageView(row: NewMessageRow): MessageView {
  return toMessageView({
    ...row,
    agentId: row.agentId ?? null,
    sources: row.sources ?? [],
    usage: row.usage ?? null,
    attachments: row.attachments ?? [],
    metadata: row.metadata ?? {},
    isDraft: row.isDraft ?? false,
    agentVersion: row.agentVersion ?? null,
    createdAt: row.createdAt ?? new Date(),
  });
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
    agentVersion: message.agentVersion,
    createdAt: message.createdAt.toISOString(),
    ...(operatorOf(message.metadata) ? { user: operatorOf(message.metadata)! } : {}),
    ...(message.delivery ? { delivery: message.delivery } : {}),
  };
}
