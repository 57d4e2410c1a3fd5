import type { ChannelEvents } from "./notifications.ts";

export type NotifiedCacheOptions<Value> = {
  /** Bounds how long a value is used should a change notification be lost. */
  ttlMs: number;
  maxEntries: number;
  /** The id the channel's notifications name (the row's primary key). */
  idOf: (value: Value) => string;
  now?: () => number;
};

type Entry<Value> = { value: Value; expiresAt: number };

/** A row read once is shared by the requests that follow: nothing may change it. */
export function frozen<Value>(value: Value): Value {
  if (typeof value === "object" && value !== null && !(value instanceof Date)) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Rows this process read recently, kept while a notification channel says they have not changed
 * (a trigger on their table notifies with the row's id; every process listens). It keeps
 * nothing while it is not listening, since it would then miss changes, and a read that
 * overlapped a change is not kept either: it may have returned the row as it was before.
 */
export function createNotifiedCache<Value>(options: NotifiedCacheOptions<Value>) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<Value>>();
  let listening = false;
  /** Raised by every change and by every start or loss of listening. */
  let generation = 0;

  /** Drops the values of this id (a change announced, or made by this process). */
  function forget(id: string): void {
    generation += 1;
    for (const [key, entry] of entries) {
      if (options.idOf(entry.value) === id) entries.delete(key);
    }
  }

  function reset(nowListening: boolean): void {
    listening = nowListening;
    generation += 1;
    entries.clear();
  }

  const events: ChannelEvents = {
    onNotify: forget,
    onListening: () => reset(true),
    onLost: () => reset(false),
  };

  return {
    events,
    forget,

    get(key: string): Value | null {
      const entry = entries.get(key);
      if (!entry) return null;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return null;
      }
      return entry.value;
    },

    /** Taken before reading a value from the database; `keep` refuses the read if it went stale. */
    ticket(): number {
      return generation;
    },

    keep(key: string, value: Value, ticket: number): void {
      if (!listening || ticket !== generation) return;
      if (entries.size >= options.maxEntries && !entries.has(key)) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(key, { value, expiresAt: now() + options.ttlMs });
    },
  };
}
