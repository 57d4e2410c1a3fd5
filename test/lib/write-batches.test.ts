import { describe, expect, test } from "vitest";
import { createWriteBatches } from "../../src/lib/write-batches.ts";

class RejectedError extends Error {}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A store whose writes end when the test says so, recording each write's items. */
function heldStore(options: { failWhen?: (items: string[]) => Error | undefined } = {}) {
  const writes: string[][] = [];
  const pending: Array<() => void> = [];
  const batches = createWriteBatches<string>({
    maxBatch: 3,
    tookNoEffect: (error) => error instanceof RejectedError,
    write(items) {
      writes.push(items);
      return new Promise<void>((resolve, reject) => {
        pending.push(() => {
          const error = options.failWhen?.(items);
          if (error) reject(error);
          else resolve();
        });
      });
    },
  });
  const finishWrites = async () => {
    for (;;) {
      await nextTurn();
      if (pending.length === 0) return;
      pending.shift()!();
    }
  };
  return { batches, writes, finishWrites };
}

const outcome = (promise: Promise<void>) =>
  promise.then(
    () => "stored",
    (error: Error) => `failed: ${error.message}`,
  );

describe("createWriteBatches", () => {
  test("writes what arrived in one turn of the event loop together, without waiting for more", async () => {
    const { batches, writes, finishWrites } = heldStore();
    const stored = [outcome(batches.add("a")), outcome(batches.add("b"))];
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual([["a", "b"]]);
    await finishWrites();
    expect(await Promise.all(stored)).toEqual(["stored", "stored"]);
  });

  test("writes what arrived during a write together, at most maxBatch at a time", async () => {
    const { batches, writes, finishWrites } = heldStore();
    const first = outcome(batches.add("a"));
    await nextTurn();
    const results = ["b", "c", "d", "e", "f"].map((item) => outcome(batches.add(item)));
    expect(writes).toEqual([["a"]]);
    await finishWrites();
    expect(writes).toEqual([["a"], ["b", "c", "d"], ["e", "f"]]);
    expect(await Promise.all([first, ...results])).toEqual(Array(6).fill("stored"));
  });

  test("writes again one by one after a rejected batch, so that only the bad item fails", async () => {
    const { batches, writes, finishWrites } = heldStore({
      failWhen: (items) => (items.includes("bad") ? new RejectedError("bad item") : undefined),
    });
    const results = ["a", "b", "bad", "c"].map((item) => outcome(batches.add(item)));
    await finishWrites();
    expect(writes).toEqual([["a", "b", "bad"], ["a"], ["b"], ["bad"], ["c"]]);
    expect(await Promise.all(results)).toEqual(["stored", "stored", "failed: bad item", "stored"]);
  });

  test("fails every item of a batch whose failure may have committed it", async () => {
    const { batches, writes, finishWrites } = heldStore({
      failWhen: (items) => (items.length > 1 ? new Error("connection lost") : undefined),
    });
    const results = ["a", "b"].map((item) => outcome(batches.add(item)));
    await finishWrites();
    expect(await Promise.all(results)).toEqual([
      "failed: connection lost",
      "failed: connection lost",
    ]);
    const later = outcome(batches.add("c"));
    await finishWrites();
    expect(await later).toBe("stored");
    expect(writes).toEqual([["a", "b"], ["c"]]);
  });
});
