import { describe, expect, it } from "vitest";
import { createVerifiedKeys } from "../../src/domain/api-keys/verified-keys.ts";

const key = (apiKeyId: string) => ({
  apiKeyId,
  organizationId: "org",
  userId: "user",
  lastUsedAt: null,
});

function listeningKeys(options: { ttlMs?: number; maxEntries?: number } = {}) {
  let clock = 1_000;
  const keys = createVerifiedKeys({
    ttlMs: options.ttlMs ?? 60_000,
    maxEntries: options.maxEntries ?? 100,
    now: () => clock,
  });
  keys.events.onListening();
  return { keys, advance: (ms: number) => (clock += ms) };
}

describe("verified API keys kept in memory", () => {
  it("keeps nothing until it listens for changes, and nothing once listening is lost", () => {
    const keys = createVerifiedKeys({ ttlMs: 60_000, maxEntries: 100 });
    keys.keep("hash-a", key("a"), keys.ticket());
    expect(keys.get("hash-a")).toBeNull();

    keys.events.onListening();
    keys.keep("hash-a", key("a"), keys.ticket());
    expect(keys.get("hash-a")).toEqual(key("a"));

    keys.events.onLost();
    expect(keys.get("hash-a")).toBeNull();
    keys.keep("hash-a", key("a"), keys.ticket());
    expect(keys.get("hash-a")).toBeNull();
  });

  it("forgets a key when it is announced as changed, and only that key", () => {
    const { keys } = listeningKeys();
    keys.keep("hash-a", key("a"), keys.ticket());
    keys.keep("hash-b", key("b"), keys.ticket());
    keys.events.onNotify("a");
    expect(keys.get("hash-a")).toBeNull();
    expect(keys.get("hash-b")).toEqual(key("b"));
    keys.forget("b");
    expect(keys.get("hash-b")).toBeNull();
  });

  it("does not keep a read that a change overlapped", () => {
    const { keys } = listeningKeys();
    const ticket = keys.ticket();
    // The key is revoked while its row is being read: the row read may predate the revocation.
    keys.events.onNotify("a");
    keys.keep("hash-a", key("a"), ticket);
    expect(keys.get("hash-a")).toBeNull();

    const lostTicket = keys.ticket();
    keys.events.onLost();
    keys.events.onListening();
    keys.keep("hash-a", key("a"), lostTicket);
    expect(keys.get("hash-a")).toBeNull();
  });

  it("reads a key again once its time to live has passed", () => {
    const { keys, advance } = listeningKeys({ ttlMs: 5_000 });
    keys.keep("hash-a", key("a"), keys.ticket());
    advance(4_999);
    expect(keys.get("hash-a")).toEqual(key("a"));
    advance(1);
    expect(keys.get("hash-a")).toBeNull();
  });

  it("makes room by dropping the key kept longest", () => {
    const { keys } = listeningKeys({ maxEntries: 2 });
    for (const id of ["a", "b", "c"]) keys.keep(`hash-${id}`, key(id), keys.ticket());
    expect(keys.get("hash-a")).toBeNull();
    expect(keys.get("hash-b")).toEqual(key("b"));
    expect(keys.get("hash-c")).toEqual(key("c"));
  });
});
