import type { Db } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../ops/metrics.ts";
import { createEventHub } from "./event-hub.ts";
import { createEventRepo } from "./event-repo.ts";
import { createEventStreams } from "./event-streams.ts";
import type { EventPublisher, PublishedEvent } from "./event-types.ts";

/** What follows published events inside their transaction. */
export type EventFollower = {
  published(events: readonly PublishedEvent[], tx?: Db): Promise<void>;
};

/** The channel the migration's trigger notifies with each committed event's id. */
export const LIVE_EVENTS_CHANNEL = "live_events";

/**
 * How long events are kept for streams that resume (DESIGN.md §12 asks for at least 5 minutes):
 * an hour, pruned by the `events.prune` job every five minutes.
 */
const LIVE_EVENT_RETENTION_MS = 60 * 60 * 1000;

const HUB_SETTINGS = { maxQueued: 500, pageSize: 500, retryMs: 1_000 };

/**
 * Live events: where services publish them (`publisher`), and the streams of GET /api/events and
 * the public chat (`liveEvents`), fed by one LISTEN per process (`liveEvents.changes`).
 */
export function createEventModule(deps: {
  db: Db;
  logger: Pick<Logger, "warn">;
  metrics: Pick<Metrics, "handoff">;
  /**
   * Told of every event in the publisher's transaction: what must happen exactly when the change
   * commits (subscriptions' deliveries, e-mail to the people who can reply).
   */
  followers: readonly EventFollower[];
}) {
  const events = createEventRepo(deps.db);
  const hub = createEventHub({ events, logger: deps.logger, settings: HUB_SETTINGS });
  /** Every request for a person passes here, whichever service made it: counted by trigger. */
  const counted = async (published: readonly PublishedEvent[], tx?: Db) => {
    await events.insert(published, tx);
    for (const follower of deps.followers) await follower.published(published, tx);
    for (const event of published) {
      if (event.name === "conversation.human_requested") {
        deps.metrics.handoff(String(event.data.trigger));
      }
    }
  };
  const publisher: EventPublisher = {
    publish: (event, tx) => counted([event], tx),
    publishAll: (published, tx) => counted(published, tx),
  };
  return {
    publisher,
    liveEvents: {
      ...createEventStreams({ hub }),
      changes: hub.changes,
      endAll: hub.endAll,
      /** The events.prune job: drops what is past its retention. */
      prune: () => events.prune(LIVE_EVENT_RETENTION_MS),
    },
  };
}

export type LiveEvents = ReturnType<typeof createEventModule>["liveEvents"];
