import { AsyncResource } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { embeddedDatabaseTurns, inBackground } from "../../src/db/background-work.ts";
import { openDatabase, rowsOf } from "../../src/db/client.ts";
import { createThreadPool, threadEntry } from "../../src/lib/thread-pool.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { databaseTest } from "../harness/fixtures.ts";

/** A promise and the function that settles it. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe("turns at the embedded database", () => {
  test("go to a waiting request before waiting background work", async () => {
    const take = embeddedDatabaseTurns();
    const order: string[] = [];
    const held = deferred();
    const holding = take(async () => {
      order.push("request 1");
      await held.promise;
    });
    const waiting = [
      inBackground(() => take(async () => void order.push("background 1"))),
      inBackground(() => take(async () => void order.push("background 2"))),
      take(async () => void order.push("request 2")),
    ];
    held.resolve();
    await Promise.all([holding, ...waiting]);
    expect(order).toEqual(["request 1", "request 2", "background 1", "background 2"]);
  });

  test("give background work one turn per turn of the event loop", async () => {
    const take = embeddedDatabaseTurns();
    const order: string[] = [];
    let arrived: Promise<void> | undefined;
    // A request that arrives (as I/O does, outside the background work) in the loop's next turn.
    const arrive = AsyncResource.bind(() => {
      arrived = take(async () => void order.push("request"));
    });
    await Promise.all([
      inBackground(() =>
        take(async () => {
          order.push("background 1");
          setImmediate(arrive);
        }),
      ),
      inBackground(() => take(async () => void order.push("background 2"))),
    ]);
    await arrived;
    expect(order).toEqual(["background 1", "request", "background 2"]);
  });

  test("still give background work a turn while requests keep coming", async () => {
    const take = embeddedDatabaseTurns(20);
    const order: string[] = [];
    const held = deferred();
    const holding = take(async () => {
      await held.promise;
    });
    const background = inBackground(() => take(async () => void order.push("background")));
    const requests = [take(async () => void order.push("request 1"))];
    await new Promise((resolve) => setTimeout(resolve, 40));
    requests.push(take(async () => void order.push("request 2")));
    held.resolve();
    await Promise.all([holding, background, ...requests]);
    expect(order).toEqual(["background", "request 1", "request 2"]);
  });

  test("let a request whose worker thread has answered go on in the same turn", async () => {
    const failure = () => new Error("the test thread failed");
    const pool = createThreadPool<{ posted: Int32Array }>({
      entry: threadEntry(import.meta.url, "answering-thread"),
      threads: 1,
      maxMemoryMb: 64,
      taskName: "a test task",
      failures: {
        outOfMemory: failure,
        outOfTime: failure,
        stopped: failure,
        closed: failure,
        fromThread: failure,
      },
    });
    const task = () => ({ posted: new Int32Array(new SharedArrayBuffer(4)) });
    try {
      // The thread started and its module loaded.
      await pool.run(task(), { timeoutMs: 30_000 });
      const take = embeddedDatabaseTurns();
      const order: string[] = [];
      const held = deferred();
      const holding = take(async () => {
        await held.promise;
        order.push("request 1");
        // Runs once the chain of microtasks ends, before the loop delivers any message.
        process.nextTick(() => order.push("the chain of microtasks ended"));
      });
      const waiting = take(async () => void order.push("request 2"));
      const { posted } = task();
      const afterThread = pool
        .run<string>({ posted }, { timeoutMs: 30_000 })
        .then(() => take(async () => void order.push("after its thread")));
      // Blocked, so no turn of the loop passes, until the thread has posted its answer.
      expect(Atomics.wait(posted, 0, 0, 30_000)).not.toBe("timed-out");
      held.resolve();
      await Promise.all([holding, waiting, afterThread]);
      // All in one chain of microtasks: the nextTick has not run yet.
      expect(order).toEqual(["request 1", "request 2", "after its thread"]);
    } finally {
      await pool.close();
    }
  });

  test("pass on the turn when the work fails", async () => {
    const take = embeddedDatabaseTurns();
    await expect(
      take(async () => {
        throw new Error("the statement failed");
      }),
    ).rejects.toThrow("the statement failed");
    await expect(take(async () => "next")).resolves.toBe("next");
    await expect(inBackground(() => take(async () => "background"))).resolves.toBe("background");
  });
});

// The embedded database's drizzle client and job executor take their turns.
const embedded = databaseTest(() => openDatabase({ kind: "pglite", dataDir: null }));

describe.skipIf(testDatabaseKind !== "pglite")("the embedded database", () => {
  embedded(
    "runs a request's statement before the background work queued earlier",
    async ({ database }) => {
      const { db } = database;
      await db.execute(sql`create table turns (id serial primary key, label text not null)`);
      const insert = (label: string) =>
        db.execute(sql`insert into turns (label) values (${label})`);
      const inside = deferred();
      const held = deferred();
      const transaction = db.transaction(async (tx) => {
        await tx.execute(sql`insert into turns (label) values ('request 1')`);
        inside.resolve();
        await held.promise;
      });
      await inside.promise;
      const waiting = [
        inBackground(async () => {
          // drizzle's statements start when awaited.
          await insert("background 1");
        }),
        inBackground(() =>
          database.jobExecutor!.executeSql("insert into turns (label) values ($1)", ["job"]),
        ),
        insert("request 2"),
      ];
      // Until each of them waits for its turn.
      await new Promise((resolve) => setTimeout(resolve, 10));
      held.resolve();
      await Promise.all([transaction, ...waiting]);
      const rows = rowsOf<{ label: string }>(
        await db.execute(sql`select label from turns order by id`),
      );
      const labels = rows.map((row) => row.label);
      expect(labels.slice(0, 2)).toEqual(["request 1", "request 2"]);
      expect(labels.slice(2).sort()).toEqual(["background 1", "job"]);
    },
  );
});
