import { describe, expect, test } from "vitest";
import { createNotifiedCache } from "../../src/db/notified-cache.ts";

type Row = { id: string; name: string };
const row = (id: string): Row => ({ id, name: `row ${id}` });
const idOf = (value: Row) => value.id;

function listeningCache(options: { ttlMs?: number; maxEntries?: number } = {}) {
  let clock = 1_000;
  const cache = createNotifiedCache({
    ttlMs: options.ttlMs ?? 60_000,
    maxEntries: options.maxEntries ?? 100,
    idOf,
    now: () => clock,
  });
  cache.events.onListening();
  return { cache, advance: (ms: number) => (clock += ms) };
}

describe("rows kept in memory while notifications say they have not changed", () => {
  test("keeps nothing until it listens for changes, and nothing once listening is lost", () => {
    const cache = createNotifiedCache({ ttlMs: 60_000, maxEntries: 100, idOf });
    cache.keep("key-a", row("a"), cache.ticket());
    expect(cache.get("key-a")).toBeNull();

    cache.events.onListening();
    cache.keep("key-a", row("a"), cache.ticket());
    expect(cache.get("key-a")).toEqual(row("a"));

    cache.events.onLost();
    expect(cache.get("key-a")).toBeNull();
    cache.keep("key-a", row("a"), cache.ticket());
    expect(cache.get("key-a")).toBeNull();
  });

  test("forgets a row when it is announced as changed, and only that row", () => {
    const { cache } = listeningCache();
    cache.keep("key-a", row("a"), cache.ticket());
    cache.keep("key-b", row("b"), cache.ticket());
    cache.events.onNotify("a");
    expect(cache.get("key-a")).toBeNull();
    expect(cache.get("key-b")).toEqual(row("b"));
    cache.forget("b");
    expect(cache.get("key-b")).toBeNull();
  });

  test("does not keep a read that a change overlapped", () => {
    const { cache } = listeningCache();
    const ticket = cache.ticket();
    // The row changes while it is being read: the read may predate the change.
    cache.events.onNotify("a");
    cache.keep("key-a", row("a"), ticket);
    expect(cache.get("key-a")).toBeNull();

    const lostTicket = cache.ticket();
    cache.events.onLost();
    cache.events.onListening();
    cache.keep("key-a", row("a"), lostTicket);
    expect(cache.get("key-a")).toBeNull();
  });

  test("reads a row again once its time to live has passed", () => {
    const { cache, advance } = listeningCache({ ttlMs: 5_000 });
    cache.keep("key-a", row("a"), cache.ticket());
    advance(4_999);
    expect(cache.get("key-a")).toEqual(row("a"));
    advance(1);
    expect(cache.get("key-a")).toBeNull();
  });

  test("makes room by dropping the row kept longest", () => {
    const { cache } = listeningCache({ maxEntries: 2 });
    for (const id of ["a", "b", "c"]) cache.keep(`key-${id}`, row(id), cache.ticket());
    expect(cache.get("key-a")).toBeNull();
    expect(cache.get("key-b")).toEqual(row("b"));
    expect(cache.get("key-c")).toEqual(row("c"));
  });
});
