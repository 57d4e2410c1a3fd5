import type { Db } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import { createEventHub } from "./event-hub.ts";
import { createEventRepo } from "./event-repo.ts";
import { createEventStreams } from "./event-streams.ts";
import type { EventPublisher } from "./event-types.ts";

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
export function createEventModule(deps: { db: Db; logger: Pick<Logger, "warn"> }) {
  const events = createEventRepo(deps.db);
  const hub = createEventHub({ events, logger: deps.logger, settings: HUB_SETTINGS });
  const publisher: EventPublisher = {
    publish: (event, tx) => events.insert([event], tx),
    publishAll: (published, tx) => events.insert(published, tx),
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
