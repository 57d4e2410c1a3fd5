import type { Redis } from "ioredis";

type Window = { count: number; startedAt: number };
type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

const MAX_TRACKED_KEYS = 10_000;

/**
 * Fixed-window counters in process memory for @fastify/rate-limit.
 *
 * The plugin's own LocalStore hands every caller the same mutable record, so requests that
 * arrive in the same tick all read the final count and are all refused. This store answers each
 * increment with a snapshot, which keeps "5 allowed, the rest refused" exact under concurrency.
 */
class MemoryRateLimitStore {
  private readonly windows = new Map<string, Window>();

  /** The plugin passes each route's window as a third argument (its typings omit it). */
  incr(key: string, callback: IncrCallback, timeWindow = 60_000): void {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.startedAt + timeWindow <= now) {
      window = { count: 0, startedAt: now };
      this.windows.delete(key);
      this.windows.set(key, window);
      this.evictOldest();
    }
    window.count += 1;
    callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now });
  }

  child(): MemoryRateLimitStore {
    return new MemoryRateLimitStore();
  }

  /** Keeps memory bounded under a flood of distinct addresses: oldest windows go first. */
  private evictOldest(): void {
    while (this.windows.size > MAX_TRACKED_KEYS) {
      const oldest = this.windows.keys().next().value;
      if (oldest === undefined) return;
      this.windows.delete(oldest);
    }
  }
}

/**
 * Where @fastify/rate-limit keeps its counters: in Redis, shared by every API process, when the
 * service has one; else in this process's memory.
 */
export function rateLimitStorage(redis: Redis | null) {
  return redis ? { redis, nameSpace: "agentdesk:rate-limit:" } : { store: MemoryRateLimitStore };
}
