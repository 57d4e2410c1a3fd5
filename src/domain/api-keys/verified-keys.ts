import type { ChannelEvents } from "../../db/notifications.ts";

/** The database channel on which changes to API keys are announced (migration 0013). */
export const API_KEYS_CHANGED_CHANNEL = "api_keys_changed";

export type VerifiedKey = {
  apiKeyId: string;
  organizationId: string;
  userId: string;
  /** When use was last recorded (ms since the epoch), to record it at most once a minute. */
  lastUsedAt: number | null;
};

type Entry = { key: VerifiedKey; expiresAt: number };

export type VerifiedKeysOptions = {
  /** Bounds how long a key stays accepted should a change notification be lost. */
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
};

/**
 * API keys this process verified recently, by the SHA-256 of the key, so most requests skip the
 * database read that authenticates them. Revocations reach it as notifications (every process
 * listens on API_KEYS_CHANGED_CHANNEL) and directly from this process's own revocations. It keeps
 * nothing while it is not listening, since it would then miss revocations, and a read that
 * overlapped a change is not kept either: the row it returned may be the one just revoked.
 */
export function createVerifiedKeys(options: VerifiedKeysOptions) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let listening = false;
  /** Raised by every change and by every start or loss of listening. */
  let generation = 0;

  function forget(apiKeyId: string): void {
    generation += 1;
    for (const [keyHash, entry] of entries) {
      if (entry.key.apiKeyId === apiKeyId) entries.delete(keyHash);
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

    get(keyHash: string): VerifiedKey | null {
      const entry = entries.get(keyHash);
      if (!entry) return null;
      if (entry.expiresAt <= now()) {
        entries.delete(keyHash);
        return null;
      }
      return entry.key;
    },

    /** Taken before reading a key from the database; `keep` refuses the read if it went stale. */
    ticket(): number {
      return generation;
    },

    keep(keyHash: string, key: VerifiedKey, ticket: number): void {
      if (!listening || ticket !== generation) return;
      if (entries.size >= options.maxEntries && !entries.has(keyHash)) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(keyHash, { key, expiresAt: now() + options.ttlMs });
    },
  };
}

export type VerifiedKeys = ReturnType<typeof createVerifiedKeys>;
