import type { EventSourceMessage } from "eventsource-parser";
import type { Db } from "../../src/db/client.ts";
import type { LiveEventName, PublishedEvent } from "../../src/domain/events/event-types.ts";
import type { TestApp } from "../harness/app.ts";

/** Publishes as the handoff services do, through the app's publisher. */
export function publish(
  app: TestApp,
  event: Partial<PublishedEvent> & Pick<PublishedEvent, "organizationId" | "agentId">,
  tx?: Db,
) {
  const name: LiveEventName = event.name ?? "conversation.updated";
  return app.runtime.services.events.publish(
    { conversationId: "conversation-1", data: {}, ...event, name },
    tx,
  );
}

/** An event's JSON data. */
export const dataOf = (event: EventSourceMessage) =>
  JSON.parse(event.data) as Record<string, unknown>;

/** The `marker` field each test puts in its events' data, in the order they arrived. */
export const markersOf = (events: EventSourceMessage[]) =>
  events.map((event) => dataOf(event).marker);
