// Paced HTTP prober run inside a worker thread by bench/ingest-reads.ts (plain JS: workers skip
// tsx): one request every `intervalMs` until the parent posts "stop", each timed on this thread's
// own event loop, so a server blocked by synchronous work shows up as latency.

import { setTimeout as sleep } from "node:timers/promises";
import { parentPort, workerData } from "node:worker_threads";

const { requests, intervalMs } = workerData;
const latencies = Object.fromEntries(requests.map((request) => [request.label, []]));
let stopped = false;
parentPort.on("message", () => {
  stopped = true;
});

while (!stopped) {
  for (const request of requests) {
    const started = performance.now();
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
    await response.arrayBuffer();
    latencies[request.label].push(performance.now() - started);
  }
  await sleep(intervalMs);
}
parentPort.postMessage(latencies);
