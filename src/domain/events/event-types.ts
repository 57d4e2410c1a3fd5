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
};
