import { AsyncLocalStorage } from "node:async_hooks";
import { takeThreadAnswers } from "../lib/thread-pool.ts";

const background = new AsyncLocalStorage<true>();

/**
 * Runs `work`, and everything it starts, as background work: on the embedded database its
 * statements wait while requests' statements are waiting (`embeddedDatabaseTurns`). The job
 * workers run in it; on PostgreSQL it changes nothing.
 */
export function inBackground<T>(work: () => T): T {
  return background.run(true, work);
}

const isBackground = () => background.getStore() === true;

/**
 * While requests keep the embedded database busy, waiting background work still gets a turn this
 * often, so a service flooded with requests still runs its jobs (and renews their leases).
 */
const BACKGROUND_TURN_EVERY_MS = 100;

/**
 * Turns at the embedded database, which runs one statement or transaction at a time for the whole
 * process, synchronously, on the thread that also serves the requests. Given in arrival order (as
 * PGlite does), the job workers' statements ran back to back in one turn of the event loop, and an
 * acknowledgement that needs 2 ms of the database waited behind them all: 140 ms at the median at
 * 200 channel updates a second (bench/RESULTS.md). Here:
 * - a request's statement or transaction (`take` outside `inBackground`) runs at once when the
 *   database is free, else before any waiting background work;
 * - background work gets at most one turn per turn of the event loop, in its check phase: the
 *   requests that arrived meanwhile are read, and served, first;
 * - but when background work has waited BACKGROUND_TURN_EVERY_MS (since its last turn, or since
 *   it began to wait), its next turn goes before waiting requests;
 * - between two turns, the answers of worker threads are taken (`takeThreadAnswers`).
 * `take` runs `work` in its turn; the next turn starts when it settles.
 */
export function embeddedDatabaseTurns(backgroundTurnEveryMs = BACKGROUND_TURN_EVERY_MS) {
  /** A turn is running, or `reserved` for the next background turn. */
  let taken = false;
  let reserved = false;
  let pumpScheduled = false;
  /** Since when background work has waited: the last background turn, or the first to wait. */
  let backgroundWaitingSince = 0;
  const requests: Array<() => void> = [];
  const backgroundWork: Array<() => void> = [];

  function schedulePump() {
    if (pumpScheduled || backgroundWork.length === 0) return;
    pumpScheduled = true;
    setImmediate(pump);
  }

  /** The check phase: the oldest background work's turn, if no request took the database. */
  function pump() {
    pumpScheduled = false;
    if (taken && !reserved) return;
    reserved = false;
    const next = backgroundWork.shift();
    if (next) {
      taken = true;
      backgroundWaitingSince = performance.now();
      next();
    } else if (taken) {
      handOn();
    }
  }

  /**
   * A turn ended: the next goes to a waiting request, or to background work in the check phase.
   * Answers that worker threads have posted meanwhile are taken first, so that the requests
   * waiting on them join this chain of statements rather than wait for the next turn of the loop.
   */
  function handOn() {
    takeThreadAnswers();
    const request = requests.shift();
    if (!request) {
      taken = false;
      schedulePump();
    } else if (
      backgroundWork.length > 0 &&
      performance.now() - backgroundWaitingSince >= backgroundTurnEveryMs
    ) {
      requests.unshift(request);
      reserved = true;
      schedulePump();
    } else {
      request();
    }
  }

  return async function take<T>(work: () => Promise<T>): Promise<T> {
    if (isBackground()) {
      await new Promise<void>((resume) => {
        if (backgroundWork.length === 0) backgroundWaitingSince = performance.now();
        backgroundWork.push(resume);
        schedulePump();
      });
    } else if (taken) {
      await new Promise<void>((resume) => requests.push(resume));
    } else {
      taken = true;
    }
    try {
      return await work();
    } finally {
      handOn();
    }
  };
}
