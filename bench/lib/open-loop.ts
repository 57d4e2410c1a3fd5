import { Worker } from "node:worker_threads";

export type OpenLoopOptions = {
  /** Origins (`http://127.0.0.1:port`): every request goes to each of them. */
  targets: string[];
  path: string;
  headers: Record<string, string>;
  /** One JSON body per request, sent in this order. */
  bodies: string[];
  /** Headers of each body besides `headers` (a signature over it), in the order of `bodies`. */
  bodyHeaders?: Array<Record<string, string>>;
  /** Between two requests' due times. */
  intervalMs: number;
  /** Connections per target: enough that none waits for a free one at the rate asked. */
  connections: number;
};

export type OpenLoopResult = {
  /** Wall clock when the first request was due. */
  startedAt: number;
  /** Index `request * targets.length + target`: the HTTP status, 0 when none came. */
  statuses: Int32Array;
  /** Milliseconds from the request's due time to the end of its answer. */
  latencies: Float64Array;
  /** Wall clock (Date.now()) at the end of the answer. */
  answeredAt: Float64Array;
  /** How late the sender fired a request at worst. */
  maxLagMs: number;
};

/**
 * Sends requests at a fixed rate from a worker thread, without waiting for answers (an open
 * loop, as a platform posting its updates does), and times each answer on that thread.
 */
export function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./open-loop-worker.mjs", import.meta.url), {
      workerData: options,
    });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}
