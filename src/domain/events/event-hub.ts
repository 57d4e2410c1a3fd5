import type { ChannelEvents } from "../../db/notifications.ts";
import type { Logger } from "../../lib/logger.ts";
import type { EventRepo, LiveEventRow } from "./event-repo.ts";
import type { LiveEventName } from "./event-types.ts";

/** An event as a stream sends it: its id (`id:`), its name (`event:`) and its JSON data. */
export type StreamedEvent = { id: number; name: LiveEventName; data: Record<string, unknown> };

/** What a subscriber sends of a stored event; null to send nothing of it. */
export type EventSelector = (row: LiveEventRow) => StreamedEvent | null;

/** One stream's events: the replay after its id, then the live ones, until it is closed. */
export type EventSubscription = {
  /**
   * Settles once the stream knows where "from now" is (the newest committed event); answer the
   * client only then, so an event published after it saw the answer is never taken for older.
   */
  ready: Promise<void>;
  events(): AsyncGenerator<StreamedEvent, void>;
  /** Ends the events: the client went away, or the process is shutting down. */
  close(): void;
};

export type EventHubSettings = {
  /** Live events waiting for a slow stream; past this it drops them and reads the table. */
  maxQueued: number;
  /** Rows read per statement, by the process and by a replay. */
  pageSize: number;
  /** Delay before reading again after a failed read. */
  retryMs: number;
};

type Subscriber = { push(row: LiveEventRow): void; end(): void };

/**
 * The process's live events: told of each new event by the database (channel live_events, one
 * LISTEN for the process, "<id> <organization id>"), it reads the new rows once, by id after the
 * last it read, and hands each to the streams of its organization. An event of an organization
 * with no stream here is not read at all, when nothing before it is left to read. A stream keeps
 * its own bounded queue, so a slow client holds up nobody; one that falls further behind reads
 * the table instead of the queue.
 */
export function createEventHub(deps: {
  events: Pick<EventRepo, "after" | "lastId">;
  logger: Pick<Logger, "warn">;
  settings: EventHubSettings;
}) {
  const { maxQueued, pageSize, retryMs } = deps.settings;
  const byOrganization = new Map<string, Set<Subscriber>>();
  /** The last event read; null until listening begins. */
  let cursor: number | null = null;
  let reading: Promise<void> | null = null;
  let readAgain = false;
  /** A read failed and waits to be tried again: events before the cursor's may be unread. */
  let retrying = false;

  function dispatch(row: LiveEventRow): void {
    const subscribers = byOrganization.get(row.organizationId);
    if (subscribers) for (const subscriber of subscribers) subscriber.push(row);
  }

  async function readNew(): Promise<void> {
    do {
      readAgain = false;
      if (cursor === null) {
        // Listening has just begun: what came before is for replays, not for live streams.
        cursor = await deps.events.lastId();
        continue;
      }
      let rows: LiveEventRow[];
      do {
        rows = await deps.events.after(null, cursor, pageSize);
        for (const row of rows) {
          cursor = row.id;
          dispatch(row);
        }
      } while (rows.length === pageSize);
    } while (readAgain);
    retrying = false;
  }

  /** Reads what was committed since the last read; a read under way reads once more after. */
  function catchUp(): void {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = readNew()
      .catch((error: unknown) => {
        deps.logger.warn({ err: error }, "reading live events failed");
        retrying = true;
        setTimeout(catchUp, retryMs).unref();
      })
      .finally(() => {
        reading = null;
        // Told of an event after the read's last statement, before this: read it now.
        if (readAgain && !retrying) catchUp();
      });
  }

  const changes: ChannelEvents = {
    onNotify(payload) {
      const [idText, organizationId] = payload.split(" ", 2);
      const id = Number(idText);
      if (cursor !== null && id <= cursor) return;
      // Announced in commit order: with no read under way or failed, every event before this
      // one was read or passed over already, and none of this one's organization is wanted here.
      const unwanted = organizationId !== undefined && !byOrganization.has(organizationId);
      if (unwanted && cursor !== null && !reading && !retrying && Number.isSafeInteger(id)) {
        cursor = id;
        return;
      }
      catchUp();
    },
    // Also after a lost connection came back: what was committed meanwhile is read then.
    onListening: catchUp,
    onLost() {},
  };

  /**
   * The organization's events as `select` sends them: those after `afterId` from the table
   * first (when given), then each new one once, in id order. A stream whose queue is full drops
   * it and reads the table from its last event instead, when its client is ready for more.
   */
  function subscribe(
    organizationId: string,
    select: EventSelector,
    afterId: number | null,
  ): EventSubscription {
    const queue: StreamedEvent[] = [];
    let wake: (() => void) | null = null;
    let ended = false;
    /** The last event sent, or before the first one dispatched; null until one is known. */
    let lastId: number | null = afterId;
    /** What was published since lastId is read from the table, not the queue. */
    let fromTable = afterId !== null;
    const subscriber: Subscriber = {
      push(row) {
        lastId ??= row.id - 1;
        if (ended || fromTable) return;
        const event = select(row);
        if (event === null) return;
        if (queue.length >= maxQueued) {
          queue.length = 0;
          fromTable = true;
        } else {
          queue.push(event);
        }
        wake?.();
      },
      end,
    };
    function end(): void {
      if (ended) return;
      ended = true;
      queue.length = 0;
      const subscribers = byOrganization.get(organizationId);
      subscribers?.delete(subscriber);
      if (subscribers?.size === 0) byOrganization.delete(organizationId);
      wake?.();
    }
    // Registered before the table is read: an event committed meanwhile is in one or the other.
    const subscribers = byOrganization.get(organizationId) ?? new Set();
    subscribers.add(subscriber);
    byOrganization.set(organizationId, subscribers);

    async function* readTable(): AsyncGenerator<StreamedEvent, void> {
      let rows: LiveEventRow[];
      do {
        rows = await deps.events.after(organizationId, lastId ?? 0, pageSize);
        for (const row of rows) {
          if (ended) return;
          lastId = row.id;
          const event = select(row);
          if (event) yield event;
        }
      } while (rows.length === pageSize);
    }

    // From now: after the newest event committed when the stream opens, not after the last this
    // process has read (it may lag behind, and would hand over older events late). Read after
    // the subscriber is registered, so an event committed later is queued with a greater id.
    const ready =
      afterId === null
        ? deps.events.lastId().then((newest) => {
            lastId = Math.max(lastId ?? 0, newest);
          })
        : Promise.resolve();

    async function* events(): AsyncGenerator<StreamedEvent, void> {
      try {
        await ready;
        while (!ended) {
          if (fromTable) {
            // Cleared first: what is published during the read is queued again.
            fromTable = false;
            yield* readTable();
            continue;
          }
          const event = queue.shift();
          if (event) {
            if (lastId === null || event.id > lastId) {
              lastId = event.id;
              yield event;
            }
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = null;
        }
      } finally {
        end();
      }
    }

    return { ready, events, close: end };
  }

  return {
    changes,
    subscribe,
    /** Ends every stream, so a shutting-down listener is not held open by them. */
    endAll(): void {
      for (const subscribers of [...byOrganization.values()]) {
        for (const subscriber of [...subscribers]) subscriber.end();
      }
    },
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
