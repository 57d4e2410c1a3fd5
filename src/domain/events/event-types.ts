import type { Db } from "../../db/client.ts";

/** The organization's live events (DESIGN.md §12): what operators' screens follow. */
export const LIVE_EVENT_NAMES = [
  "message.created",
  "conversation.updated",
  "conversation.human_requested",
] as const;
export type LiveEventName = (typeof LIVE_EVENT_NAMES)[number];

/**
 * One event as a service publishes it: ids and the changed fields, never a message's
 * provider internals. `conversationId` is the conversation's API id (its externalId).
 */
export type PublishedEvent = {
  organizationId: string;
  agentId: string;
  conversationId: string;
  name: LiveEventName;
  data: Record<string, unknown>;
};

/**
 * Where services publish events. `publish` writes in the caller's transaction when given one,
 * so an event exists exactly when the change it reports does.
 */
export type EventPublisher = {
  publish(event: PublishedEvent, tx?: Db): Promise<void>;
  /** Several events in one statement (a turn's messages). */
  publishAll(events: readonly PublishedEvent[], tx?: Db): Promise<void>;
};

/**
 * The data `message.created` carries: the message as the conversations API shows it
 * (`toMessageView`), with the person who sent an operator's reply (a key's reply: its name).
 * Visitors are sent only `id`, `from`, `text`, `createdAt` and the operator's name of it.
 */
export type MessageCreatedData = {
  message: {
    id: string;
    from: "human" | "agent";
    text: string;
    createdAt: string;
    isDraft?: boolean;
    user?: { id: string | null; email: string | null; name: string | null } | null;
  } & Record<string, unknown>;
};

/**
 * The data `conversation.updated` carries: the fields that changed. Visitors are sent only
 * `status` and `aiEnabled` of it.
 */
export type ConversationUpdatedData = {
  status?: string;
  aiEnabled?: boolean;
  assignee?: { id: string; email: string; name: string | null } | null;
} & Record<string, unknown>;
