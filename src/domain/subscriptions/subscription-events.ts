/**
 * The events an organization can subscribe to (DESIGN.md §12), each delivered as a webhook with
 * `X-Service-Event` = its name.
 */
export const SUBSCRIBABLE_EVENTS = [
  "conversation.human_requested",
  "conversation.resolved",
  "message.created",
  "lead.created",
] as const;
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];

/** The body of a subscription's delivery: the event, when it happened, what it is about. */
export function subscriptionPayload(
  event: SubscribableEvent,
  about: { agentId?: string; conversationId?: string },
  data: Record<string, unknown>,
): string {
  return JSON.stringify({ event, createdAt: new Date().toISOString(), ...about, data });
}
